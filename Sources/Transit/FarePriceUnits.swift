import Foundation

/// Each fare's price in whole millionths of its currency, made only where every fare's price
/// is one: the cheapest tickets are then summed and compared as integers. A `Decimal` sum or
/// comparison costs some 500–700 instructions, and pricing each journey a query builds took a
/// tenth of a depart-at query's instructions (session 58, callgrind on Tampere).
struct FarePriceUnits: Sendable, Hashable {
    static let perUnit: Int64 = 1_000_000
    /// Per fare (`FareTable.fares` order), its price in millionths.
    let millionths: [Int64]

    /// nil when a price has finer parts than millionths or is too large: those are summed as
    /// `Decimal`s (`FarePricing`), the same answer more slowly.
    init?(_ fares: [FareTable.Fare]) {
        var millionths: [Int64] = []
        millionths.reserveCapacity(fares.count)
        let scale = Decimal(Self.perUnit), ceiling = Decimal(Int64.max / 1_024)
        for fare in fares {
            let scaled = fare.price * scale
            guard scaled.isFinite, abs(scaled) < ceiling, let units = Int64(scaled.description),
                  Decimal(units) == scaled else { return nil }
            millionths.append(units)
        }
        self.millionths = millionths
    }
}
