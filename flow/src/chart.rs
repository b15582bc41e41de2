//! Hand-written SVG charts for the study pages: grouped bars (one group per category, one
//! bar per series) and stacked fractions (one horizontal bar per row). Plain SVG, no
//! scripts, so a page renders the same in a browser, on GitHub and in a paper draft.

/// One series of a grouped bar chart: a value per category, `None` where there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<f64>>,
}

/// Colours for series and bins (Tableau 10: tells ten apart, prints in grey).
const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// Text safe inside SVG (and HTML) elements and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

fn header(width: f64, height: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>\n",
        escape(title)
    )
}

/// A legend row of coloured squares and names starting at (x, y), wrapping at `width`.
fn legend(names: &[String], x: f64, y: f64, width: f64) -> (String, f64) {
    let (mut s, mut cx, mut cy) = (String::new(), x, y);
    for (i, name) in names.iter().enumerate() {
        let w = 18.0 + 6.5 * name.chars().count() as f64;
        if cx + w > width && cx > x {
            cx = x;
            cy += 16.0;
        }
        s.push_str(&format!(
            "<rect x=\"{cx:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"{cy:.1}\">{}</text>\n",
            cy - 9.0,
            colour(i),
            cx + 14.0,
            escape(name)
        ));
        cx += w + 10.0;
    }
    (s, cy)
}

/// A "nice" axis step near range/5: 1, 2 or 5 times a power of ten.
fn tick_step(range: f64) -> f64 {
    let raw = (range / 5.0).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude)
}

/// Vertical grouped bars: one group per category, one bar per series, a y axis from 0
/// with ticks of `decimals` places, and an optional dashed reference line (for example
/// 1.0 = the baseline). Each bar carries its value as a tooltip; a missing value leaves
/// a gap.
pub fn grouped_bars(
    title: &str,
    y_label: &str,
    categories: &[String],
    series: &[Series],
    decimals: usize,
    reference: Option<(f64, &str)>,
) -> String {
    let (left, right, plot_h, bar_w, group_gap) = (56.0, 20.0, 260.0, 9.0, 14.0);
    let group_w = bar_w * series.len().max(1) as f64 + group_gap;
    let width = (left + right + group_w * categories.len() as f64).max(480.0);
    let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    let (legend_svg, legend_bottom) = legend(&names, left, 38.0, width - right);
    let top = legend_bottom + 22.0;
    let label_h = 8.0
        + 6.0
            * categories
                .iter()
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0) as f64;
    let height = top + plot_h + label_h + 10.0;
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().flatten().copied())
        .chain(reference.map(|(v, _)| v))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let step = tick_step(if max > 0.0 { max } else { 1.0 });
    let y_max = ((max / step).floor() + 1.0) * step;
    let y_of = |v: f64| top + plot_h - v.clamp(0.0, y_max) / y_max * plot_h;

    let mut s = header(width, height, title);
    s.push_str(&legend_svg);
    s.push_str(&format!(
        "<text x=\"14\" y=\"{:.1}\" transform=\"rotate(-90 14 {:.1})\" text-anchor=\"middle\">{}</text>\n",
        top + plot_h / 2.0,
        top + plot_h / 2.0,
        escape(y_label)
    ));
    let ticks = (y_max / step).round() as usize;
    for t in 0..=ticks {
        let v = step * t as f64;
        let y = y_of(v);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v:.decimals$}</text>\n",
            width - right,
            left - 4.0,
            y + 4.0
        ));
    }
    for (g, category) in categories.iter().enumerate() {
        let x0 = left + group_gap / 2.0 + group_w * g as f64;
        for (i, series) in series.iter().enumerate() {
            let Some(v) = series.values.get(g).copied().flatten() else {
                continue;
            };
            if !v.is_finite() {
                continue;
            }
            let y = y_of(v);
            s.push_str(&format!(
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{bar_w}\" height=\"{:.1}\" fill=\"{}\">\
                 <title>{} {}: {v:.decimals$}</title></rect>\n",
                x0 + bar_w * i as f64,
                top + plot_h - y,
                colour(i),
                escape(category),
                escape(&series.name)
            ));
        }
        let cx = x0 + bar_w * series.len() as f64 / 2.0;
        let cy = top + plot_h + 10.0;
        s.push_str(&format!(
            "<text x=\"{cx:.1}\" y=\"{cy:.1}\" text-anchor=\"end\" transform=\"rotate(-45 {cx:.1} {cy:.1})\">{}</text>\n",
            escape(category)
        ));
    }
    if let Some((v, name)) = reference {
        let y = y_of(v);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            width - right,
            width - right,
            y - 3.0,
            escape(name)
        ));
    }
    s.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{top:.1}\" x2=\"{left}\" y2=\"{:.1}\" stroke=\"black\"/>\n</svg>\n",
        top + plot_h
    ));
    s
}

/// Horizontal stacked bars, one per row, each the full width split by `fractions[row]`
/// (one fraction per bin, summing to 1), with a legend of the bins.
pub fn stacked_fractions(
    title: &str,
    rows: &[String],
    bins: &[String],
    fractions: &[Vec<f64>],
) -> String {
    let (label_w, bar_w, row_h) = (170.0, 480.0, 16.0);
    let width = label_w + bar_w + 20.0;
    let (legend_svg, legend_bottom) = legend(bins, label_w, 38.0, width);
    let top = legend_bottom + 14.0;
    let height = top + row_h * rows.len() as f64 + 10.0;
    let mut s = header(width, height, title);
    s.push_str(&legend_svg);
    for (r, row) in rows.iter().enumerate() {
        let y = top + row_h * r as f64;
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            label_w - 6.0,
            y + 11.0,
            escape(row)
        ));
        let mut x = label_w;
        for (b, &f) in fractions
            .get(r)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let w = f.clamp(0.0, 1.0) * bar_w;
            if w > 0.0 {
                s.push_str(&format!(
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{}\">\
                     <title>{} {}: {:.1}%</title></rect>\n",
                    row_h - 3.0,
                    colour(b),
                    escape(row),
                    escape(bins.get(b).map(String::as_str).unwrap_or("?")),
                    100.0 * f
                ));
            }
            x += w;
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rects(svg: &str) -> Vec<(f64, f64, f64, f64)> {
        let attr = |el: &str, name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let at = el.find(&key).expect(name) + key.len();
            el[at..at + el[at..].find('"').unwrap()].parse().unwrap()
        };
        svg.split("<rect")
            .skip(1)
            .map(|el| el.split('>').next().unwrap())
            .filter(|el| el.contains(" x="))
            .map(|el| {
                (
                    attr(el, "x"),
                    attr(el, "y"),
                    attr(el, "width"),
                    attr(el, "height"),
                )
            })
            .collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn grouped_bars_heights_are_proportional_and_gaps_are_left() {
        let series = [
            Series {
                name: "a".into(),
                values: vec![Some(1.0), Some(2.0)],
            },
            Series {
                name: "b<c".into(),
                values: vec![None, Some(0.5)],
            },
        ];
        let svg = grouped_bars(
            "t",
            "y",
            &names(&["x", "y"]),
            &series,
            2,
            Some((1.0, "base")),
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("b&lt;c") && !svg.contains("b<c"));
        // Two legend squares (10 x 10) and three bars: the missing value leaves a gap.
        let bars: Vec<_> = rects(&svg).into_iter().filter(|r| r.2 == 9.0).collect();
        assert_eq!(bars.len(), 3);
        let (one, two, half) = (bars[0].3, bars[1].3, bars[2].3);
        assert!((two / one - 2.0).abs() < 1e-3 && (half / one - 0.5).abs() < 1e-2);
        // Bars stand on one baseline; the reference line is drawn, dashed.
        let bottoms: Vec<f64> = bars.iter().map(|r| r.1 + r.3).collect();
        assert!(bottoms.iter().all(|b| (b - bottoms[0]).abs() < 0.2));
        assert!(svg.contains("stroke-dasharray") && svg.contains(">base<"));
        assert!(svg.contains("x a: 1.00") && svg.contains("y b&lt;c: 0.50"));
    }

    #[test]
    fn stacked_fractions_fill_each_row_in_bin_order() {
        let svg = stacked_fractions(
            "t",
            &names(&["r0", "r1"]),
            &names(&["0", "1-8", "9-16"]),
            &[vec![0.25, 0.25, 0.5], vec![0.0, 1.0, 0.0]],
        );
        let bars: Vec<_> = rects(&svg).into_iter().filter(|r| r.2 != 10.0).collect();
        assert_eq!(bars.len(), 4, "empty bins draw nothing");
        assert_eq!(bars[0].0, 170.0);
        assert!((bars[0].2 - 120.0).abs() < 0.1 && (bars[2].0 + bars[2].2 - 650.0).abs() < 0.1);
        assert!((bars[3].2 - 480.0).abs() < 0.1 && bars[3].1 > bars[0].1);
        assert!(svg.contains("r0 9-16: 50.0%"));
    }

    #[test]
    fn tick_steps_are_one_two_or_five_times_a_power_of_ten() {
        for (range, step) in [
            (1.0, 0.2),
            (1.6, 0.5),
            (40.0, 10.0),
            (7.0, 2.0),
            (0.03, 0.01),
        ] {
            assert!((tick_step(range) - step).abs() < 1e-9 * step, "{range}");
        }
    }
}
