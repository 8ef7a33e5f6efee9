/// Formats an amount in cents as euros for people: `24.90 €`.
///
/// ```swift
/// formatCents(2_490)     // "24.90 €"
/// ```
///
/// - Parameter cents: The amount in cents.
/// - Returns: The amount with two decimals and the currency sign.
public func formatCents(_ cents: Int) -> String {
    let sign = cents < 0 ? "-" : ""
    let magnitude = abs(cents)
    let fraction = magnitude % 100
    return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) €"
}
