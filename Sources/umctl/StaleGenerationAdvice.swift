import WireProtocol

/// What to do after an edit sent with `--expect-generation G` met `conflict`: the daemon says
/// that nothing was changed; the person also needs to know to read the plan again (`plan show`
/// prints its generation) and to decide the edit afresh from what it holds now, since the
/// other edit may have made this one moot or different.
enum StaleGenerationAdvice {
    /// `error` with that advice added when it is the conflict of a stale generation (its data
    /// names the plan's `generation`) of an edit of plan `id` that gave one; any other error as
    /// it came (another conflict, such as a listed option gone, carries its own advice).
    static func explained(_ error: WireError, plan id: Int64, expectedGeneration: Int64?) -> WireError {
        guard expectedGeneration != nil, error.code == WireError.Code.conflict.rawValue,
              case .object(let fields)? = error.data, fields["generation"] != nil else { return error }
        var explained = error
        explained.message += "; read the plan again (umctl plan show \(id) prints its generation) "
            + "and decide the edit from what it holds now"
        return explained
    }
}
