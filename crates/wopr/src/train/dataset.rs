//! Training examples: inputs, targets and optional per-output masks, with a
//! CSV form.
//!
//! CSV layout: a header naming the columns `x0,x1,…` (inputs), then
//! `y0,y1,…` (targets), then optionally `m0,m1,…` (one mask column per
//! target: `1` = the output counts, `0` = it carries no error), and one row
//! per example. Values are decimal numbers; blank lines are skipped.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// What was wrong with a dataset or its file (one line, with the line
/// number for CSV).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DataError(pub String);

/// Examples for supervised training, stored row-major.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Dataset {
    num_inputs: usize,
    num_outputs: usize,
    inputs: Vec<f32>,
    targets: Vec<f32>,
    masks: Option<Vec<bool>>,
}

impl Dataset {
    /// An empty dataset; `with_masks` says whether examples carry masks.
    pub fn new(num_inputs: usize, num_outputs: usize, with_masks: bool) -> Dataset {
        Dataset {
            num_inputs,
            num_outputs,
            inputs: Vec::new(),
            targets: Vec::new(),
            masks: with_masks.then(Vec::new),
        }
    }

    /// A dataset from row-major vectors (`masks`, if given, has one entry
    /// per target); fails if the lengths do not fit together.
    pub fn from_vecs(
        num_inputs: usize,
        num_outputs: usize,
        inputs: Vec<f32>,
        targets: Vec<f32>,
        masks: Option<Vec<bool>>,
    ) -> Result<Dataset, DataError> {
        if num_inputs == 0 || num_outputs == 0 {
            return Err(DataError(
                "a dataset needs at least one input and one target".into(),
            ));
        }
        if !inputs.len().is_multiple_of(num_inputs) {
            return Err(DataError(format!(
                "{} input values is not a whole number of rows of {num_inputs}",
                inputs.len()
            )));
        }
        let n = inputs.len() / num_inputs;
        if targets.len() != n * num_outputs {
            return Err(DataError(format!(
                "{n} examples need {} target values, got {}",
                n * num_outputs,
                targets.len()
            )));
        }
        if let Some(m) = &masks {
            if m.len() != targets.len() {
                return Err(DataError(format!(
                    "{} targets but {} mask values",
                    targets.len(),
                    m.len()
                )));
            }
        }
        Ok(Dataset {
            num_inputs,
            num_outputs,
            inputs,
            targets,
            masks,
        })
    }

    /// Appends an example; `mask` must be given exactly when the dataset has
    /// masks.
    pub fn push(
        &mut self,
        input: &[f32],
        target: &[f32],
        mask: Option<&[bool]>,
    ) -> Result<(), DataError> {
        if input.len() != self.num_inputs || target.len() != self.num_outputs {
            return Err(DataError(format!(
                "example has {} inputs and {} targets, the dataset {} and {}",
                input.len(),
                target.len(),
                self.num_inputs,
                self.num_outputs
            )));
        }
        match (&mut self.masks, mask) {
            (Some(ms), Some(m)) if m.len() == self.num_outputs => ms.extend_from_slice(m),
            (None, None) => {}
            (Some(_), _) => {
                return Err(DataError(format!(
                    "this dataset needs a mask of {} values per example",
                    self.num_outputs
                )))
            }
            (None, Some(_)) => return Err(DataError("this dataset has no masks".into())),
        }
        self.inputs.extend_from_slice(input);
        self.targets.extend_from_slice(target);
        Ok(())
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.inputs.len().checked_div(self.num_inputs).unwrap_or(0)
    }

    /// Whether there are no examples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Inputs per example.
    pub fn num_inputs(&self) -> usize {
        self.num_inputs
    }

    /// Targets per example.
    pub fn num_outputs(&self) -> usize {
        self.num_outputs
    }

    /// All inputs, row-major.
    pub fn inputs(&self) -> &[f32] {
        &self.inputs
    }

    /// All targets, row-major.
    pub fn targets(&self) -> &[f32] {
        &self.targets
    }

    /// All masks, row-major, if the dataset has them.
    pub fn masks(&self) -> Option<&[bool]> {
        self.masks.as_deref()
    }

    /// Example `i`'s inputs.
    pub fn input(&self, i: usize) -> &[f32] {
        &self.inputs[i * self.num_inputs..(i + 1) * self.num_inputs]
    }

    /// Example `i`'s targets.
    pub fn target(&self, i: usize) -> &[f32] {
        &self.targets[i * self.num_outputs..(i + 1) * self.num_outputs]
    }

    /// Example `i`'s mask, if the dataset has masks.
    pub fn mask(&self, i: usize) -> Option<&[bool]> {
        let o = self.num_outputs;
        self.masks.as_ref().map(|m| &m[i * o..(i + 1) * o])
    }

    /// Reads the CSV form (see the module documentation).
    pub fn from_csv(text: &str) -> Result<Dataset, DataError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty());
        let (hline, header) = lines
            .next()
            .ok_or_else(|| DataError("empty CSV: expected a header x0,…,y0,…[,m0,…]".into()))?;
        let (ni, no, with_masks) = parse_header(hline, header)?;
        let mut data = Dataset::new(ni, no, with_masks);
        let width = ni + no + if with_masks { no } else { 0 };
        let names = |c: usize| column_name(c, ni, no);
        let mut x = vec![0.0f32; ni];
        let mut y = vec![0.0f32; no];
        let mut m = vec![true; no];
        for (line, row) in lines {
            let fields: Vec<&str> = row.split(',').map(str::trim).collect();
            if fields.len() != width {
                return Err(DataError(format!(
                    "line {line}: expected {width} fields ({}), found {}",
                    header_summary(ni, no, with_masks),
                    fields.len()
                )));
            }
            for (c, f) in fields.iter().enumerate() {
                if c >= ni + no {
                    m[c - ni - no] = match *f {
                        "1" => true,
                        "0" => false,
                        _ => {
                            return Err(DataError(format!(
                                "line {line}, column {} ({}): mask value '{f}' must be 0 or 1",
                                c + 1,
                                names(c)
                            )))
                        }
                    };
                    continue;
                }
                let v: f32 = f
                    .parse()
                    .ok()
                    .filter(|v: &f32| v.is_finite())
                    .ok_or_else(|| {
                        DataError(format!(
                            "line {line}, column {} ({}): '{f}' is not a finite number",
                            c + 1,
                            names(c)
                        ))
                    })?;
                if c < ni {
                    x[c] = v;
                } else {
                    y[c - ni] = v;
                }
            }
            data.push(&x, &y, with_masks.then_some(&m[..]))?;
        }
        Ok(data)
    }

    /// Reads a CSV file.
    pub fn read_csv(path: impl AsRef<Path>) -> Result<Dataset, DataError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))?;
        Dataset::from_csv(&text).map_err(|e| DataError(format!("{}: {e}", path.display())))
    }

    /// The CSV form (values written so they read back exactly).
    pub fn to_csv(&self) -> String {
        let (ni, no) = (self.num_inputs, self.num_outputs);
        let cols = ni + no + if self.masks.is_some() { no } else { 0 };
        let mut s = String::new();
        let header: Vec<String> = (0..cols).map(|c| column_name(c, ni, no)).collect();
        s.push_str(&header.join(","));
        s.push('\n');
        for i in 0..self.len() {
            let mut first = true;
            let mut put = |s: &mut String, v: &dyn std::fmt::Display| {
                if !first {
                    s.push(',');
                }
                first = false;
                let _ = write!(s, "{v}");
            };
            for v in self.input(i).iter().chain(self.target(i)) {
                put(&mut s, v);
            }
            if let Some(m) = self.mask(i) {
                for &b in m {
                    put(&mut s, &u8::from(b));
                }
            }
            s.push('\n');
        }
        s
    }

    /// Writes the CSV form to a file.
    pub fn write_csv(&self, path: impl AsRef<Path>) -> Result<(), DataError> {
        let path = path.as_ref();
        std::fs::File::create(path)
            .and_then(|mut f| f.write_all(self.to_csv().as_bytes()))
            .map_err(|e| DataError(format!("cannot write {}: {e}", path.display())))
    }
}

fn column_name(c: usize, ni: usize, no: usize) -> String {
    if c < ni {
        format!("x{c}")
    } else if c < ni + no {
        format!("y{}", c - ni)
    } else {
        format!("m{}", c - ni - no)
    }
}

fn header_summary(ni: usize, no: usize, with_masks: bool) -> String {
    let mut s = format!("x0..x{}, y0..y{}", ni - 1, no - 1);
    if with_masks {
        s.push_str(&format!(", m0..m{}", no - 1));
    }
    s
}

/// Checks the header: `x0..x{n-1}` (n ≥ 1), `y0..y{k-1}` (k ≥ 1), then
/// optionally `m0..m{k-1}`.
fn parse_header(line: usize, header: &str) -> Result<(usize, usize, bool), DataError> {
    const GROUPS: [char; 3] = ['x', 'y', 'm'];
    let mut counts = [0usize; 3];
    let mut group = 0;
    for (c, name) in header.split(',').map(str::trim).enumerate() {
        let lower = name.to_ascii_lowercase();
        let continues = lower == format!("{}{}", GROUPS[group], counts[group]);
        let starts_next =
            group < 2 && counts[group] > 0 && lower == format!("{}0", GROUPS[group + 1]);
        if starts_next {
            group += 1;
        } else if !continues {
            let mut expected = format!("'{}{}'", GROUPS[group], counts[group]);
            if group < 2 && counts[group] > 0 {
                expected.push_str(&format!(" or '{}0'", GROUPS[group + 1]));
            }
            return Err(DataError(format!(
                "line {line}: header column {} is '{name}', expected {expected} (header: x0,x1,…,y0,y1,…[,m0,m1,…])",
                c + 1
            )));
        }
        counts[group] += 1;
    }
    let [ni, no, nm] = counts;
    if ni == 0 || no == 0 {
        return Err(DataError(format!(
            "line {line}: header needs at least one x and one y column, found {ni} x and {no} y"
        )));
    }
    if nm != 0 && nm != no {
        return Err(DataError(format!(
            "line {line}: {nm} mask columns for {no} target columns; give one m per y, or none"
        )));
    }
    Ok((ni, no, nm > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trip() {
        let mut d = Dataset::new(2, 2, true);
        d.push(&[0.1, -2.0], &[1.0, 0.0], Some(&[true, false]))
            .unwrap();
        d.push(&[3.25e-7, 5.0], &[0.0, 1.0], Some(&[true, true]))
            .unwrap();
        let text = d.to_csv();
        assert!(text.starts_with("x0,x1,y0,y1,m0,m1\n"));
        assert_eq!(Dataset::from_csv(&text).unwrap(), d);
    }
}
