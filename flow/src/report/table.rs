//! The report's rows, its Markdown table and SVG chart, and the cache key.
use crate::area::Area;
use crate::asic::AsicFigures;
use crate::chart::escape;
use crate::fpga::FpgaResult;
use serde::{Deserialize, Serialize};

/// One preset's figures.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub preset: String,
    /// What the inputs hashed to; a cached row is reused only under the same key.
    pub key: String,
    /// `None` when Yosys was stopped at `synth_minutes` (then `fpga` is `None` too).
    pub area: Option<Area>,
    /// `None` when `synth_ice40` (or the area flow before it) was stopped.
    pub fpga: Option<FpgaResult>,
    /// Set when a Yosys run of this row was stopped at this many minutes.
    #[serde(default)]
    pub synth_minutes: Option<u64>,
    /// Wall time of the run that measured this row (area and iCE40 flows), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// Cell-library figures (`weft area --asic`); `None` when not measured or stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic: Option<AsicFigures>,
    /// What the cell-library figures were measured under (the Verilog and
    /// [`crate::asic::flow_identity`]), kept apart from `key` so that adding them left
    /// the published keys valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic_key: Option<String>,
    /// Set when the cell-library mapping was stopped at this many minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic_minutes: Option<u64>,
    /// Wall time of the run that measured the cell-library figures, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asic_seconds: Option<f64>,
}

impl Row {
    /// The cell-library cells of the table: area, cells, critical path, Fmax.
    pub fn asic_cells(&self) -> String {
        match (&self.asic, self.asic_minutes) {
            (Some(f), _) => format!(
                "{:.0} | {} | {} | {}",
                f.area_um2,
                f.cells_and_macros(),
                f.critical_path_ns
                    .map_or("-".into(), |ns| format!("{ns:.3}")),
                f.fmax_mhz.map_or("-".into(), |m| format!("{m:.0}"))
            ),
            (None, Some(m)) => format!("mapping > {m} min | - | - | -"),
            (None, None) => "- | - | - | -".into(),
        }
    }

    /// The iCE40 cell: Fmax, or why there is none.
    pub fn ice40_cell(&self) -> String {
        match (&self.fpga, self.synth_minutes) {
            (Some(f), _) => fmax_cell(f),
            (None, Some(m)) => format!("synthesis > {m} min"),
            (None, None) => "n/a".into(),
        }
    }
}

/// 64-bit FNV-1a over `parts` (each followed by a separator), as 16 hex digits: stable
/// across runs, platforms and Rust versions, unlike `DefaultHasher`.
pub fn cache_key(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The iCE40 cell of the table: Fmax, or why there is none.
pub fn fmax_cell(f: &FpgaResult) -> String {
    match (&f.does_not_fit, f.fmax_median_mhz) {
        (Some(why), _) => {
            // The resources over capacity, from the sentence of `fpga::does_not_fit`.
            let over = why.split_once(": ").map_or(why.as_str(), |(_, r)| r);
            let over: Vec<&str> = over
                .split("; ")
                .map(|r| r.rsplit_once(" (").map_or(r, |(text, _)| text))
                .collect();
            format!("does not fit: {}", over.join("; "))
        }
        (None, Some(mhz)) => format!("{mhz:.1}"),
        (None, None) => match f.pnr_minutes {
            Some(m) if f.unfinished.is_some() => format!("P&R > {m} min"),
            _ => "n/a".into(),
        },
    }
}

/// The Markdown table, with a header naming the tools and the command.
pub fn markdown(rows: &[Row], header: &str) -> String {
    let mut s = String::from(header);
    s.push_str(
        "\n| preset | cells | flip-flops | RAM bits | gates | logic depth | transistors | \
         Xilinx LUTs | Xilinx FFs | iCE40 LCs (block) | iCE40 Fmax MHz | cell area um2 | \
         lib. cells | critical path ns | Fmax MHz |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for r in rows {
        let lcs = match &r.fpga {
            Some(f) if f.does_not_fit.is_none() && f.logic_cells.is_some() => {
                let harness = f.harness.luts.max(f.harness.flip_flops);
                let lc = f.logic_cells.unwrap_or(0);
                format!("{lc} ({})", lc.saturating_sub(harness))
            }
            _ => "-".into(),
        };
        let area = match &r.area {
            // The figures up to Xilinx flip-flops (the table's columns).
            Some(a) => a.figures()[..8]
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" | "),
            None => ["-"; 8].join(" | "),
        };
        s.push_str(&format!(
            "| `{}` | {area} | {lcs} | {} | {} |\n",
            r.preset,
            r.ice40_cell(),
            r.asic_cells()
        ));
    }
    s
}

/// Two horizontal bar charts side by side: 2-input gate count (log scale) and iCE40
/// Fmax (linear); a preset without a figure (does not fit, a flow stopped at its time
/// limit) gets the reason instead of a bar.
pub fn svg(rows: &[Row], title: &str) -> String {
    let (label_w, bar_w, gap, row_h, top) = (210.0, 300.0, 90.0, 18.0, 48.0);
    let width = label_w + 2.0 * bar_w + gap + 40.0;
    let height = top + row_h * rows.len() as f64 + 20.0;
    let gates_of = |r: &Row| r.area.as_ref().map(|a| a.gates);
    let fmax_of = |r: &Row| r.fpga.as_ref().and_then(|f| f.fmax_median_mhz);
    let max_gates = rows.iter().filter_map(gates_of).max().unwrap_or(1).max(10) as f64;
    let max_fmax = rows.iter().filter_map(fmax_of).fold(1.0f64, f64::max);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{label_w}\" y=\"38\">2-input gates (log scale, max {max_gates:.0})</text>\n\
         <text x=\"{:.0}\" y=\"38\">iCE40 Fmax, MHz (max {max_fmax:.1})</text>\n",
        escape(title),
        label_w + bar_w + gap
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * i as f64;
        s.push_str(&format!(
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            label_w - 6.0,
            y + 12.0,
            escape(&r.preset)
        ));
        let label = |x: f64, text: &str| {
            format!(
                "<text x=\"{x:.0}\" y=\"{:.1}\" fill=\"#999\">{}</text>\n",
                y + 12.0,
                escape(text)
            )
        };
        match gates_of(r) {
            Some(g) => {
                let w = (g.max(1) as f64).log10() / max_gates.log10() * bar_w;
                s.push_str(&format!(
                    "<rect x=\"{label_w}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"#4e79a7\"/>\n\
                     <text x=\"{:.1}\" y=\"{:.1}\">{g}</text>\n",
                    row_h - 4.0,
                    label_w + w + 3.0,
                    y + 12.0,
                ));
            }
            None => s.push_str(&label(label_w, &r.ice40_cell())),
        }
        let x = label_w + bar_w + gap;
        match fmax_of(r) {
            Some(f) => {
                let w = f / max_fmax * bar_w;
                s.push_str(&format!(
                    "<rect x=\"{x:.0}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"#f28e2b\"/>\n\
                     <text x=\"{:.1}\" y=\"{:.1}\">{f:.1}</text>\n",
                    row_h - 4.0,
                    x + w + 3.0,
                    y + 12.0
                ));
            }
            // Does not fit, or not finished: say which.
            None => s.push_str(&label(x, &r.ice40_cell())),
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpga::{Device, Ice40Cells};

    fn row(name: &str, gates: u64, fmax: Option<f64>) -> Row {
        let cells = Ice40Cells {
            luts: 9000,
            flip_flops: 100,
            carries: 0,
            ram_blocks: 0,
        };
        Row {
            preset: name.into(),
            key: "k".into(),
            area: Some(Area {
                preset: name.into(),
                cells: 1,
                flip_flops: 2,
                transistors: 3,
                ram_bits: 4,
                gates,
                logic_depth: 5,
                xilinx_luts: 6,
                xilinx_ffs: 7,
                xilinx_lutram: 0,
                xilinx_bram: 0,
            }),
            fpga: Some(FpgaResult {
                preset: name.into(),
                device: Device::Hx8k,
                part: Device::Hx8k.part().into(),
                target_mhz: 100.0,
                harness_input_bits: 1,
                harness_output_bits: 1,
                total: cells,
                harness: Ice40Cells {
                    luts: 10,
                    flip_flops: 20,
                    ..cells
                },
                does_not_fit: fmax.is_none().then(|| {
                    crate::fpga::does_not_fit(
                        name,
                        Device::Hx8k,
                        &[
                            ("ICESTORM_LC".into(), 9000, 7680),
                            ("ICESTORM_RAM".into(), 36, 32),
                        ],
                    )
                }),
                unfinished: None,
                pnr_minutes: None,
                logic_cells: fmax.map(|_| 120),
                logic_cells_available: 7680,
                ram_blocks: fmax.map(|_| 0),
                seeds: vec![1, 2, 3],
                fmax_per_seed_mhz: fmax.into_iter().collect(),
                fmax_median_mhz: fmax,
            }),
            synth_minutes: None,
            seconds: None,
            asic: None,
            asic_key: None,
            asic_minutes: None,
            asic_seconds: None,
        }
    }

    #[test]
    fn a_stopped_place_and_route_says_so() {
        let mut r = row("congested", 50, Some(1.0));
        let f = r.fpga.as_mut().unwrap();
        f.fmax_median_mhz = None;
        f.fmax_per_seed_mhz.clear();
        f.unfinished = Some("place and route did not finish within 20 min".into());
        f.pnr_minutes = Some(20);
        assert_eq!(r.ice40_cell(), "P&R > 20 min");
        assert!(r
            .fpga
            .as_ref()
            .unwrap()
            .summary()
            .contains("did not finish within 20 min"));
        assert!(svg(&[r], "t").contains(">P&amp;R &gt; 20 min<"));
    }

    #[test]
    fn a_stopped_synthesis_leaves_dashes_and_says_so() {
        let mut r = row("huge", 50, Some(1.0));
        r.area = None;
        r.fpga = None;
        r.synth_minutes = Some(60);
        let md = markdown(&[r.clone()], "# t\n");
        assert!(
            md.contains("| `huge` | - | - | - | - | - | - | - | - | - | synthesis > 60 min |"),
            "{md}"
        );
        let s = svg(&[r], "t");
        assert_eq!(s.matches("<rect x=").count(), 0, "no bars: {s}");
        assert_eq!(s.matches(">synthesis &gt; 60 min<").count(), 2, "{s}");
    }

    #[test]
    fn table_shows_fmax_or_the_reason() {
        let md = markdown(
            &[row("small", 50, Some(123.456)), row("big", 5000, None)],
            "# t\n",
        );
        assert!(
            md.contains("| `small` | 1 | 2 | 4 | 50 | 5 | 3 | 6 | 7 | 120 (100) | 123.5 |"),
            "{md}"
        );
        assert!(
            md.contains(
                "| - | does not fit: 9000 logic cells needed, 7680 available; \
                 36 4 kbit block RAMs needed, 32 available |"
            ),
            "{md}"
        );
    }

    #[test]
    fn chart_has_one_bar_per_fitting_preset() {
        let s = svg(&[row("a<b", 50, Some(100.0)), row("big", 5000, None)], "t");
        assert_eq!(s.matches("fill=\"#4e79a7\"").count(), 2);
        assert_eq!(s.matches("fill=\"#f28e2b\"").count(), 1);
        assert!(s.contains("a&lt;b") && s.contains("does not fit"));
    }

    #[test]
    fn cache_key_changes_with_any_part() {
        let k = cache_key(&["module a; endmodule", "Yosys 0.23"]);
        assert_eq!(k.len(), 16);
        assert_ne!(k, cache_key(&["module a; endmodule", "Yosys 0.24"]));
        assert_ne!(k, cache_key(&["module a; endmodule Yosys 0.23"]));
        // FNV-1a 64 of the empty input is its offset basis.
        assert_eq!(cache_key(&[]), "cbf29ce484222325");
    }
}
