//! Line plots (PNG and SVG) with plotters: learning curves, fitness over
//! generations, yardstick results. Text is drawn with DejaVu Sans embedded
//! in the binary (plotters' `ab_glyph` backend), so no fontconfig or
//! installed font is needed.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

/// One named line.
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points `(x, y)`.
    pub points: Vec<(f64, f64)>,
}

/// DejaVu Sans (licence in `assets/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Registers the embedded font as `sans-serif` (once).
fn register_font() -> anyhow::Result<()> {
    static REGISTERED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_ok()
    });
    anyhow::ensure!(ok, "the embedded plot font could not be loaded");
    Ok(())
}

/// Draws `series` into `stem.png` and `stem.svg`.
pub fn lines(
    stem: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> anyhow::Result<()> {
    register_font()?;
    let png = stem.with_extension("png");
    let svg = stem.with_extension("svg");
    draw(
        BitMapBackend::new(&png, (900, 560)).into_drawing_area(),
        title,
        x_label,
        y_label,
        series,
    )
    .with_context(|| format!("cannot draw {}", png.display()))?;
    draw(
        SVGBackend::new(&svg, (900, 560)).into_drawing_area(),
        title,
        x_label,
        y_label,
        series,
    )
    .with_context(|| format!("cannot draw {}", svg.display()))?;
    Ok(())
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let all = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    if x1 - x0 < 1e-12 {
        x1 = x0 + 1.0;
    }
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, (y0 - pad)..(y1 + pad))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for (i, s) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
    }
    if series.len() > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}
