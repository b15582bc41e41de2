//! The coalescer: a (sub-)warp's global accesses become one request per distinct line,
//! served one line per cycle (LWM §2.2). Each line keeps the lanes that touched it
//! (their rows are the group's), which is what a mechanism that splits a warp by hit and
//! miss needs.
use super::execute::{bits, Access};
use crate::lib::column_compactor::Group;

/// One line an instruction touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub line: u32,
    /// Distinct bytes accessed in the line (an address read by several threads counts
    /// once).
    pub bytes: u32,
    /// The group's lanes whose threads touched the line.
    pub lanes: u64,
}

/// Reused buffers of the coalescer.
#[derive(Default)]
pub struct Coalescer {
    /// (line, address, bytes, lane) of every global access of the group.
    accesses: Vec<(u32, u32, u32, u32)>,
}

impl Coalescer {
    /// The distinct lines the threads of `group` touch, in line order, into `out`;
    /// whether any of them accessed private memory. `accesses` is indexed by the
    /// thread's place in the warp (`row * lanes + lane`).
    pub fn coalesce(
        &mut self,
        accesses: &[Access],
        group: &Group,
        lanes: usize,
        out: &mut Vec<Line>,
    ) -> bool {
        self.accesses.clear();
        out.clear();
        let mut private = false;
        for lane in bits(group.lanes) {
            match accesses[group.rows[lane] * lanes + lane] {
                Access::Global { line, addr, bytes } => {
                    self.accesses.push((line, addr, bytes, lane as u32))
                }
                Access::Private => private = true,
                Access::Shared | Access::None => {}
            }
        }
        self.accesses.sort_unstable();
        let mut last_addr = None;
        for &(line, addr, bytes, lane) in &self.accesses {
            match out.last_mut() {
                Some(l) if l.line == line => {
                    l.lanes |= 1 << lane;
                    if last_addr != Some(addr) {
                        l.bytes += bytes;
                    }
                }
                _ => out.push(Line {
                    line,
                    bytes,
                    lanes: 1 << lane,
                }),
            }
            last_addr = Some(addr);
        }
        private
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn global(line: u32, addr: u32, bytes: u32) -> Access {
        Access::Global { line, addr, bytes }
    }

    #[test]
    fn one_request_per_line_with_the_lanes_that_touched_it() {
        // Two rows of 4 lanes; the group takes lanes 0 and 3 from row 1, lanes 1 and 2
        // from row 0.
        let lanes = 4;
        let mut accesses = vec![Access::None; 8];
        accesses[1] = global(7, 0x704, 4); // row 0 lane 1
        accesses[2] = global(3, 0x300, 4); // row 0 lane 2
        accesses[4] = global(7, 0x704, 4); // row 1 lane 0: the same word as lane 1
        accesses[7] = Access::Private; // row 1 lane 3
        accesses[0] = global(9, 0x900, 4); // row 0 lane 0: not in the group
        let group = Group {
            lanes: 0b1111,
            rows: vec![1, 0, 0, 1],
        };
        let mut out = vec![];
        let private = Coalescer::default().coalesce(&accesses, &group, lanes, &mut out);
        assert!(private);
        assert_eq!(
            out,
            vec![
                Line {
                    line: 3,
                    bytes: 4,
                    lanes: 0b0100
                },
                Line {
                    line: 7,
                    bytes: 4,
                    lanes: 0b0011
                },
            ]
        );
    }

    #[test]
    fn distinct_words_of_a_line_add_their_bytes() {
        let accesses = vec![
            global(1, 0x100, 4),
            global(1, 0x104, 2),
            global(1, 0x100, 4),
        ];
        let group = Group {
            lanes: 0b111,
            rows: vec![0; 3],
        };
        let mut out = vec![];
        assert!(!Coalescer::default().coalesce(&accesses, &group, 3, &mut out));
        assert_eq!(
            out,
            vec![Line {
                line: 1,
                bytes: 6,
                lanes: 0b111
            }]
        );
    }
}
