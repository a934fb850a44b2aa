import Foundation

/// Hostile GTFS-Realtime feeds made from valid ones at the wire level: boundary varints
/// (±2^63, 2^64-1, 2^32, negative times), fields repeated up to 64 times (huge counts), fields
/// dropped or renumbered, bytes flipped and bodies cut. The in-process fuzz test
/// (`RealtimeFeedFuzzTests`) and the daemon's (`RealtimeFuzzDaemonTests`) mutate alike.
public enum RealtimeFeedMutations {
    public static let boundaries: [UInt64] = [
        0, 1, 0x7F, 0x80, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 1 << 32, UInt64(Int64.max), 1 << 63, (1 << 63) + 1, .max,
        UInt64(bitPattern: -1), UInt64(bitPattern: -86_400), UInt64(bitPattern: Int64(Int32.min)), UInt64(bitPattern: Int64.min + 1),
        253_402_300_799, 253_402_300_800, 1_646_200_000, 1_646_200_000 + 10 * 365 * 86_400,
    ]

    /// `seed` with one to three mutations, cut at `maximumBodyBytes` (repeated fields make bodies
    /// of hundreds of kB; cut there, the decoder sees huge counts and a truncation at once).
    public static func mutated(_ seed: ProtobufMessage, maximumBodyBytes: Int, _ random: inout SeededRandom) -> Data {
        var message = seed
        for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&message, &random) }
        var body = message.encoded
        if body.count > maximumBodyBytes { body = body.prefix(maximumBodyBytes) }
        if Int.random(in: 0..<10, using: &random) == 0, !body.isEmpty {
            let at = Int.random(in: body.indices, using: &random)
            if Bool.random(using: &random) { body[at] ^= UInt8.random(in: 1...255, using: &random) } else { body = body.prefix(at) }
        }
        return body
    }

    private static func mutate(_ message: inout ProtobufMessage, _ random: inout SeededRandom) {
        guard !message.fields.isEmpty else { return }
        let index = Int.random(in: message.fields.indices, using: &random)
        switch message.fields[index].value {
        case .message(var inner) where Int.random(in: 0..<4, using: &random) > 0:
            mutate(&inner, &random)
            message.fields[index].value = .message(inner)
        case .message where Bool.random(using: &random):
            // Huge counts: the field repeated.
            let copies = Int.random(in: 2...64, using: &random)
            message.fields.insert(contentsOf: repeatElement(message.fields[index], count: copies), at: index)
        case .varint:
            message.fields[index].value = .varint(Int.random(in: 0..<4, using: &random) > 0
                ? boundaries.randomElement(using: &random)! : random.next())
        default:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: message.fields.remove(at: index)
            case 1: message.fields[index].value = .varint(boundaries.randomElement(using: &random)!)
            case 2: message.fields[index].number = Int.random(in: 1...20, using: &random)
            default: message.fields[index].value = .bytes(Data((0..<Int.random(in: 0...12, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random) }))
            }
        }
    }
}
