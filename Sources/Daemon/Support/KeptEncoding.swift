import Foundation
import Synchronization
import WireProtocol

/// One value's `WireCodec` encoding, kept while the value stays equal: for a part of an answer
/// that is asked far more often than it changes (`StatusAnswerWriter`).
final class KeptEncoding<Value: Encodable & Equatable & Sendable>: Sendable {
    private let kept = Mutex<(value: Value, encoded: Data)?>(nil)

    func encoded(_ value: Value) throws -> Data {
        if let kept = kept.withLock({ $0 }), kept.value == value { return kept.encoded }
        let encoded = try WireCodec.encoder.encode(value)
        kept.withLock { $0 = (value, encoded) }
        return encoded
    }
}
