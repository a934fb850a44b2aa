/// One edit of a plan, as `plan.edits` takes it: any single-edit method with that method's own
/// params. On the wire it is `{"method": "plan.mode", "params": {"segment": 2, "mode": "car"}}`;
/// `params.id` may be left out (the list's `id` is the plan), and if given must be that plan.
public struct PlanEdit: Hashable, Sendable, Codable {
    /// Every kind of edit: the one list of them (the daemon registers each as its own method
    /// and runs it through its rule; `plan.edits` reads each by its method; `umctl plan` lists
    /// their commands in this order). Adding an edit: docs/architecture.md.
    public static let kinds: [any PlanEditParams.Type] = [
        Params.PlanInsert.self, Params.PlanRemove.self, Params.PlanMode.self, Params.PlanSwap.self, Params.PlanPreset.self,
        Params.PlanRebuild.self, Params.PlanPin.self, Params.PlanUnpin.self, Params.PlanPace.self, Params.PlanAccess.self,
        Params.PlanTime.self, Params.PlanRefine.self, Params.PlanAccept.self, Params.PlanDismiss.self, Params.PlanRefresh.self,
        Params.PlanStay.self, Params.PlanChoose.self, Params.PlanMove.self, Params.PlanUnlock.self, Params.PlanRename.self,
    ]

    /// Every method an edit may be, in the order of `kinds`.
    public static var methods: [WireMethod] { kinds.map { $0.method } }

    /// The edit's params, of its own method's params type.
    public let params: any PlanEditParams

    public init(_ params: some PlanEditParams) { self.params = params }

    /// The single-edit method this edit is.
    public var method: WireMethod { type(of: params).method }

    /// The plan the edit names.
    public var planID: Int64 { params.id }

    /// The generation the edit expects, if it says.
    public var expectedGeneration: Int64? { params.expectedGeneration }

    public static func == (a: PlanEdit, b: PlanEdit) -> Bool { AnyHashable(a.params) == AnyHashable(b.params) }

    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(params)) }

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
        guard let kind = Self.kinds.first(where: { $0.method.rawValue == name }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                "\"\(name)\" is not a plan edit method; the edits are \(Self.methods.map(\.rawValue).joined(separator: ", "))"))
        }
        self = try Self.edit(JSONValue.object(fields), as: kind)
    }

    private static func edit<Kind: PlanEditParams>(_ value: JSONValue, as kind: Kind.Type) throws -> PlanEdit {
        PlanEdit(try read(value, as: kind))
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
