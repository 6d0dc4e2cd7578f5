//! Stock allocation engine for the inventory service.
//!
//! Holds per-SKU stock levels and splits order lines across warehouse bins.

pub mod allocate;

use std::collections::BTreeMap;

pub use allocate::{allocate, AllocError, Allocation};

/// Units on hand for one SKU, spread across storage bins.
#[derive(Debug, Clone, Default)]
pub struct Stock {
    /// Bin label -> units in that bin.
    pub bins: BTreeMap<String, u32>,
}

impl Stock {
    /// Total units across all bins.
    pub fn total(&self) -> u32 {
        self.bins.values().sum()
    }
}

/// Parse a `SKU-NNNN,bin,qty` line from a stock export.
///
/// # Errors
///
/// Returns an error string if the line does not have three fields or the
/// quantity is not a number.
pub fn parse_line(line: &str) -> Result<(String, String, u32), String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != 3 {
        return Err(format!(
            "expected 3 fields, got {}: {:?}",
            fields.len(),
            line
        ));
    }
    let qty = fields[2]
        .parse::<u32>()
        .map_err(|e| format!("bad quantity {:?} for {}: {}", fields[2], fields[0], e))?;
    Ok((fields[0].to_string(), fields[1].to_string(), qty))
}

/// Load a whole stock export into a map keyed by SKU.
///
/// # Errors
///
/// Fails on the first malformed line, reporting its line number.
pub fn load(text: &str) -> anyhow::Result<BTreeMap<String, Stock>> {
    let mut out: BTreeMap<String, Stock> = BTreeMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let (sku, bin, qty) =
            parse_line(line).map_err(|e| anyhow::anyhow!("line {}: {}", n + 1, e))?;
        if !sku.starts_with("SKU-") {
            anyhow::bail!("line {}: invalid SKU {:?}", n + 1, sku);
        }
        *out.entry(sku).or_default().bins.entry(bin).or_insert(0) += qty;
    }
    Ok(out)
}
