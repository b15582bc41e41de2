//! weft-flow: everything weft does with the open tools, none of it needing rust-hdl.
//! Yosys, Verilator, Icarus and nextpnr runs with time limits ([`tools`]), the export
//! gate ([`lint`]), area ([`area`]), standard-cell area and timing ([`asic`]), the iCE40 flow ([`fpga`]), the published report
//! and its cache ([`report`]), SVG charts for the study pages ([`chart`]), the co-simulation replay ([`cosim`]), GTKWave save files ([`gtkwave`]), the one Verilog
//! port reader and export naming ([`verilog`]), the one job pool ([`jobs`]) and where a command's jobs run, here or as a Slurm job array ([`runner`]), kernels built
//! for the core model ([`kernel`]) and natively as its oracle ([`native`]), and what the
//! `weft` commands on exported presets do ([`commands`]).

pub mod area;
pub mod asic;
pub mod chart;
pub mod commands;
pub mod cosim;
pub mod fpga;
pub mod gtkwave;
pub mod jobs;
pub mod kernel;
pub mod lint;
pub mod native;
pub mod prove;
pub mod report;
pub mod runner;
pub mod tools;
pub mod verilog;
