/// The shop's one shipping rule, shared by the cart (to show the total) and checkout (to charge it).
public enum Shipping {
    /// What shipping costs below ``freeFromCents``, in cents.
    public static let feeCents = 490

    /// From this subtotal on, shipping is free.
    public static let freeFromCents = 5_000

    /// What shipping costs for a subtotal.
    ///
    /// ```swift
    /// Shipping.costCents(forSubtotal: 1_200)    // 490
    /// ```
    ///
    /// - Parameter subtotal: The lines' total, in cents.
    /// - Returns: The shipping fee, in cents; 0 for an empty cart.
    public static func costCents(forSubtotal subtotal: Int) -> Int {
        subtotal == 0 || subtotal >= freeFromCents ? 0 : feeCents
    }
}
