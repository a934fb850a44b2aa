/// One edit of a plan, as `plan.edits` takes it: any single-edit method with that method's own
/// params. On the wire it is `{"method": "plan.mode", "params": {"segment": 2, "mode": "car"}}`;
/// `params.id` may be left out (the list's `id` is the plan), and if given must be that plan.
public enum PlanEdit: Hashable, Sendable, Codable {
    case insert(Params.PlanInsert)
    case remove(Params.PlanNode)
    case mode(Params.PlanMode)
    case swap(Params.PlanID)
    case preset(Params.PlanPreset)
    case rebuild(Params.PlanPreset)
    case pin(Params.PlanPin)
    case unpin(Params.PlanID)
    case pace(Params.PlanPace)
    case access(Params.PlanAccess)
    case time(Params.PlanTime)
    case refine(Params.PlanRefine)
    case accept(Params.PlanSegment)
    case dismiss(Params.PlanSegment)
    case refresh(Params.PlanID)
    case stay(Params.PlanStay)
    case unlock(Params.PlanSegment)
    case rename(Params.PlanRename)
    case move(Params.PlanMove)
    case choose(Params.PlanChoose)

    /// Every method an edit may be, in the order of the cases.
    public static let methods: [WireMethod] = [.planInsert, .planRemove, .planMode, .planSwap, .planPreset, .planRebuild,
                                               .planPin, .planUnpin, .planPace, .planAccess, .planTime, .planRefine, .planAccept,
                                               .planDismiss, .planRefresh, .planStay, .planUnlock, .planRename, .planMove,
                                               .planChoose]

    /// The single-edit method this edit is.
    public var method: WireMethod {
        switch self {
        case .insert: .planInsert
        case .remove: .planRemove
        case .mode: .planMode
        case .swap: .planSwap
        case .preset: .planPreset
        case .rebuild: .planRebuild
        case .pin: .planPin
        case .unpin: .planUnpin
        case .pace: .planPace
        case .access: .planAccess
        case .time: .planTime
        case .refine: .planRefine
        case .accept: .planAccept
        case .dismiss: .planDismiss
        case .refresh: .planRefresh
        case .stay: .planStay
        case .unlock: .planUnlock
        case .rename: .planRename
        case .move: .planMove
        case .choose: .planChoose
        }
    }

    /// The plan the edit names.
    public var planID: Int64 {
        switch self {
        case .insert(let p): p.id
        case .remove(let p): p.id
        case .mode(let p): p.id
        case .swap(let p), .unpin(let p), .refresh(let p): p.id
        case .preset(let p), .rebuild(let p): p.id
        case .pin(let p): p.id
        case .pace(let p): p.id
        case .access(let p): p.id
        case .time(let p): p.id
        case .refine(let p): p.id
        case .accept(let p), .dismiss(let p), .unlock(let p): p.id
        case .stay(let p): p.id
        case .rename(let p): p.id
        case .move(let p): p.id
        case .choose(let p): p.id
        }
    }

    /// The generation the edit expects, if it says.
    public var expectedGeneration: Int64? {
        switch self {
        case .insert(let p): p.expectedGeneration
        case .remove(let p): p.expectedGeneration
        case .mode(let p): p.expectedGeneration
        case .swap(let p), .unpin(let p), .refresh(let p): p.expectedGeneration
        case .preset(let p), .rebuild(let p): p.expectedGeneration
        case .pin(let p): p.expectedGeneration
        case .pace(let p): p.expectedGeneration
        case .access(let p): p.expectedGeneration
        case .time(let p): p.expectedGeneration
        case .refine(let p): p.expectedGeneration
        case .accept(let p), .dismiss(let p), .unlock(let p): p.expectedGeneration
        case .stay(let p): p.expectedGeneration
        case .rename(let p): p.expectedGeneration
        case .move(let p): p.expectedGeneration
        case .choose(let p): p.expectedGeneration
        }
    }

    /// The params as they are encoded (`params` of the edit's own method), for sending the
    /// edit as that method.
    public var params: any Codable & Sendable {
        switch self {
        case .insert(let p): p
        case .remove(let p): p
        case .mode(let p): p
        case .swap(let p), .unpin(let p), .refresh(let p): p
        case .preset(let p), .rebuild(let p): p
        case .pin(let p): p
        case .pace(let p): p
        case .access(let p): p
        case .time(let p): p
        case .refine(let p): p
        case .accept(let p), .dismiss(let p), .unlock(let p): p
        case .stay(let p): p
        case .rename(let p): p
        case .move(let p): p
        case .choose(let p): p
        }
    }

    enum CodingKeys: String, CodingKey { case method, params }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method.rawValue, forKey: .method)
        try c.encode(JSONValue(encoding: params), forKey: .params)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .method)
        let params = try c.decodeIfPresent(JSONValue.self, forKey: .params) ?? .object([:])
        try self.init(method: name, params: params, planID: nil)
    }

    /// Reads one edit; `planID` fills a missing `params.id`.
    /// - throws: `DecodingError` naming the method or the param that is wrong.
    public init(method name: String, params: JSONValue, planID: Int64?) throws {
        guard case .object(var fields) = params else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "params of \(name) must be an object"))
        }
        if fields["id"] == nil, let planID { fields["id"] = .number(Double(planID)) }
        let value = JSONValue.object(fields)
        switch WireMethod(rawValue: name) {
        case .planInsert?: self = .insert(try Self.read(value, as: Params.PlanInsert.self))
        case .planRemove?: self = .remove(try Self.read(value, as: Params.PlanNode.self))
        case .planMode?: self = .mode(try Self.read(value, as: Params.PlanMode.self))
        case .planSwap?: self = .swap(try Self.read(value, as: Params.PlanID.self))
        case .planPreset?: self = .preset(try Self.read(value, as: Params.PlanPreset.self))
        case .planRebuild?: self = .rebuild(try Self.read(value, as: Params.PlanPreset.self))
        case .planPin?: self = .pin(try Self.read(value, as: Params.PlanPin.self))
        case .planUnpin?: self = .unpin(try Self.read(value, as: Params.PlanID.self))
        case .planPace?: self = .pace(try Self.read(value, as: Params.PlanPace.self))
        case .planAccess?: self = .access(try Self.read(value, as: Params.PlanAccess.self))
        case .planTime?: self = .time(try Self.read(value, as: Params.PlanTime.self))
        case .planRefine?: self = .refine(try Self.read(value, as: Params.PlanRefine.self))
        case .planAccept?: self = .accept(try Self.read(value, as: Params.PlanSegment.self))
        case .planDismiss?: self = .dismiss(try Self.read(value, as: Params.PlanSegment.self))
        case .planRefresh?: self = .refresh(try Self.read(value, as: Params.PlanID.self))
        case .planStay?: self = .stay(try Self.read(value, as: Params.PlanStay.self))
        case .planUnlock?: self = .unlock(try Self.read(value, as: Params.PlanSegment.self))
        case .planRename?: self = .rename(try Self.read(value, as: Params.PlanRename.self))
        case .planMove?: self = .move(try Self.read(value, as: Params.PlanMove.self))
        case .planChoose?: self = .choose(try Self.read(value, as: Params.PlanChoose.self))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                "\"\(name)\" is not a plan edit method; the edits are \(Self.methods.map(\.rawValue).joined(separator: ", "))"))
        }
    }
}

extension PlanEdit {
    /// `value` as `T`; a number an integer param cannot hold is named with its param and value
    /// (Foundation says only "The given data was not valid JSON.").
    private static func read<T: Decodable>(_ value: JSONValue, as type: T.Type) throws -> T {
        do {
            return try value.decode(as: T.self)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            guard let message = UnfitNumberFinder.message(params: value, as: T.self) else { throw DecodingError.dataCorrupted(context) }
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: message))
        }
    }
}

extension Params {
    /// `plan.edits`: `edits` applied in order to plan `id` as one change with one recompute;
    /// all or none. `dry_run` answers with the resulting plan without storing it.
    public struct PlanEdits: Hashable, Sendable, Codable {
        public var id: Int64
        public var edits: [PlanEdit]
        public var dryRun: Bool?
        /// Fails with `conflict` (changing nothing) unless the plan is at this generation.
        public var expectedGeneration: Int64?

        public init(id: Int64, edits: [PlanEdit], dryRun: Bool? = nil, expectedGeneration: Int64? = nil) {
            self.id = id
            self.edits = edits
            self.dryRun = dryRun
            self.expectedGeneration = expectedGeneration
        }

        enum CodingKeys: String, CodingKey { case id, edits, dryRun, expectedGeneration }

        /// Each edit is read with the list's `id` as its plan, and a broken one is named by its number.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let planID = try c.decode(Int64.self, forKey: .id)
            id = planID
            dryRun = try c.decodeIfPresent(Bool.self, forKey: .dryRun)
            expectedGeneration = try c.decodeIfPresent(Int64.self, forKey: .expectedGeneration)
            let raw = try c.decode([JSONValue].self, forKey: .edits)
            edits = try raw.enumerated().map { index, value in
                guard case .object(let fields) = value, case .string(let name)? = fields["method"] else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.edits],
                                                            debugDescription: "edit \(index + 1) has no method"))
                }
                do {
                    return try PlanEdit(method: name, params: fields["params"] ?? .object([:]), planID: planID)
                } catch let error as DecodingError {
                    throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.edits],
                                                            debugDescription: "edit \(index + 1) (\(name)): \(WireCodec.describe(error))"))
                }
            }
        }
    }
}
