//! Allocation of order lines to warehouse bins.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::Stock;

/// Why an order line could not be allocated.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AllocError {
    #[error("sku {0} not found")]
    NotFound(String),
    #[error("requested {requested} units of {sku}, only {available} available")]
    Insufficient {
        sku: String,
        requested: u32,
        available: u32,
    },
    #[error("quantity must be positive for {0}")]
    ZeroQuantity(String),
}

/// Units taken from each bin to fill one order line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    pub sku: String,
    pub picks: Vec<(String, u32)>,
}

impl Allocation {
    /// Total units picked across bins.
    pub fn units(&self) -> u32 {
        self.picks.iter().map(|(_, n)| n).sum()
    }
}

/// Allocate `qty` units of `sku`, draining the fullest bins first.
///
/// # Errors
///
/// Returns [`AllocError::NotFound`] for an unknown SKU and
/// [`AllocError::Insufficient`] when total stock is below `qty`.
///
/// # Panics
///
/// Panics if the picks do not add up to `qty`, which would mean the bin
/// bookkeeping is corrupt.
pub fn allocate(
    stock: &mut BTreeMap<String, Stock>,
    sku: &str,
    qty: u32,
) -> Result<Allocation, AllocError> {
    if qty == 0 {
        return Err(AllocError::ZeroQuantity(sku.to_string()));
    }
    let entry = stock
        .get_mut(sku)
        .ok_or_else(|| AllocError::NotFound(sku.to_string()))?;
    let available = entry.total();
    if available < qty {
        return Err(AllocError::Insufficient {
            sku: sku.to_string(),
            requested: qty,
            available,
        });
    }

    let mut order: Vec<(String, u32)> = entry.bins.iter().map(|(b, n)| (b.clone(), *n)).collect();
    order.sort_by(|a, b| b.1.cmp(&a.1));

    let mut remaining = qty;
    let mut picks = Vec::new();
    for (bin, have) in order {
        if remaining == 0 {
            break;
        }
        let take = have.min(remaining);
        let slot = entry
            .bins
            .get_mut(&bin)
            .expect("bin vanished while allocating");
        *slot = slot
            .checked_sub(take)
            .unwrap_or_else(|| panic!("bin {:?} underflow: had {}, took {}", bin, have, take));
        remaining -= take;
        picks.push((bin, take));
    }
    let alloc = Allocation {
        sku: sku.to_string(),
        picks,
    };
    assert_eq!(alloc.units(), qty, "allocation for {} does not add up", sku);
    Ok(alloc)
}

/// Split a pallet of `qty` units into cases of `case_size`.
///
/// # Panics
///
/// Panics if `case_size` is zero.
pub fn cases(qty: u32, case_size: u32) -> (u32, u32) {
    match case_size {
        0 => panic!("case size must be non-zero (qty {:?})", qty),
        n => (qty / n, qty % n),
    }
}

/// Map an allocation outcome to a short status code for the order log.
pub fn status_code(result: &Result<Allocation, AllocError>) -> &'static str {
    match result {
        Ok(a) if a.units() > 0 => "OK",
        Ok(_) => unreachable!("successful allocation with no units"),
        Err(AllocError::NotFound(_)) => "E404",
        Err(AllocError::Insufficient { .. }) => "E409",
        Err(AllocError::ZeroQuantity(_)) => "E400",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BTreeMap<String, Stock> {
        crate::load("SKU-1042,A1,2\nSKU-1042,B3,1\nSKU-2001,A2,40\n").unwrap()
    }

    #[test]
    fn allocates_from_fullest_bin_first() {
        let mut stock = sample();
        let a = allocate(&mut stock, "SKU-1042", 3).unwrap();
        assert_eq!(a.picks, vec![("A1".to_string(), 2), ("B3".to_string(), 1)]);
    }

    #[test]
    fn reports_shortfall() {
        let mut stock = sample();
        let err = allocate(&mut stock, "SKU-1042", 5).unwrap_err();
        assert_eq!(
            err.to_string(),
            "requested 5 units of SKU-1042, only 3 available"
        );
    }

    #[test]
    #[should_panic(expected = "case size must be non-zero")]
    fn zero_case_size_panics() {
        cases(12, 0);
    }
}
