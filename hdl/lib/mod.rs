pub mod column_compactor;
