# Clock for ASIC hand-off of any exported weft block (OpenROAD / OpenSTA syntax).
# Every rust-hdl block is clocked by its `clock` port on the rising edge; `reset` is
# synchronous (an ordinary data input). 100 MHz target: edit clock_period for your
# library. Inputs and outputs are budgeted a fifth of the period each for the logic
# outside the block.
set clock_period 10.0
set clock_port [get_ports clock]
create_clock -name clock -period $clock_period $clock_port
set_clock_uncertainty 0.1 [get_clocks clock]
set non_clock_inputs [lsearch -inline -all -not -exact [all_inputs] $clock_port]
set_input_delay [expr {$clock_period * 0.2}] -clock clock $non_clock_inputs
set_output_delay [expr {$clock_period * 0.2}] -clock clock [all_outputs]
