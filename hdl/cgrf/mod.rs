//! MT-CGRF dataflow fabric units (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6).
//!
//! # Token links (shared by every unit)
//! Units talk through point-to-point token links with a valid/ready handshake; a token
//! moves on a rising edge where both are high. A link named `x` has the ports
//! - `x_valid: Bit` (producer), `x_ready: Bit` (consumer),
//! - `x_vc: Bits<VB>`: the thread's virtual channel (its thread slot; `VCS = 2^VB`),
//!   which indexes the destination unit's token buffer,
//! - `x_tid: Bits<16>`: the thread id (VGIW §3.4: thread ids travel with every token;
//!   the live value units and the terminating control vector unit need them),
//! - `x_data: Bits<32>`: the operand (ignored on control tokens).
//!
//! A virtual channel holds at most one thread at a time, so each token buffer entry
//! serves one thread (§3.5).
pub mod compute_unit;
pub mod divide_tile;
pub mod divider_copy;
pub mod fabric;
pub mod fabric_tile;
pub mod load_store_unit;
pub mod memory_tile;
pub mod special_compute_unit;
pub mod split_join;
pub mod switch;
pub mod thread_port;
pub mod token_buffer;
