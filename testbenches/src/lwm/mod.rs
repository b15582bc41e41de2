pub mod sub_warp_unit;
