//! The kernel as VGIW sees it (VGIW paper §2-3.1): the RV32IMF ELF the SIMT core runs,
//! lowered to basic blocks that are dataflow graphs, and a functional interpreter that
//! runs them in the basic block scheduler's order.
//!
//! - [`graph`]: the lowered program (blocks, nodes, live values, terminators);
//! - [`lower`]: ELF to program (inlining, blocks, IDs, constants, liveness, memory order);
//! - [`interpret`]: the functional run of a lowered program over a launch, the oracle
//!   whose dumps equal the SIMT functional run's;
//! - [`engine`]: the paper-scale VGIW engine that times the interpreter's block
//!   executions on a fabric of units by class (`weft run --machine vgiw`).
pub mod engine;
pub mod graph;
pub mod interpret;
pub mod lower;
pub mod rtl;

use crate::core::functional::Program;
use crate::core::image::Image;

/// A kernel's lowered size (blocks, operations, live values, the most live values one
/// block touches), for the study's comparison with Table 2 of the VGIW paper; `Err`
/// says why the ELF cannot be read or lowered.
pub fn counts(elf: &[u8]) -> Result<graph::Counts, String> {
    let program = Program::new(Image::from_elf(elf)?);
    Ok(lower::lower(&program)?.counts())
}
