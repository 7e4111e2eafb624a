import Foundation
import GraphStore

extension Catalog {
    /// The budget of `settings`' key, with its calls of the last hour as the catalog recorded them.
    func apiBudget(_ settings: FetchSettings, now: Date = Date()) throws -> APIBudget {
        let fingerprint = APIBudget.fingerprint(of: settings.apiKey)
        let recent = try withContext { context in
            try context.fetchColumns(
                FetchRequest<APICall>(predicate: \.$key == fingerprint && \.$made > now.addingTimeInterval(-APIBudget.window)),
                [\.$made]
            ).values(\.$made)
        }
        return APIBudget(fingerprint: fingerprint, limit: settings.apiBudget, recent: recent)
    }

    /// Writes the calls `budget` granted since the last time, and forgets calls older than a day
    /// (once a fetch, at its end).
    func recordCalls(_ budget: APIBudget, now: Date = Date()) throws {
        try withContext { context in
            insertCalls(budget, in: context)
            for old in try context.fetch(FetchRequest<APICall>(predicate: \.$made < now.addingTimeInterval(-86_400))) {
                context.delete(old)
            }
            try context.save()
        }
    }

    /// Inserts the calls `budget` granted since the last time into `context` (saved by the caller,
    /// with the run's record after each page: one transaction).
    func insertCalls(_ budget: APIBudget, in context: ObjectContext) {
        Self.insertCalls(budget.takeUnrecorded(), key: budget.fingerprint, in: context)
    }

    static func insertCalls(_ calls: [Date], key: String, in context: ObjectContext) {
        for made in calls {
            let call = context.insert(APICall.self)
            (call.made, call.key) = (made, key)
        }
    }

    /// API calls recorded in the last hour, all keys together (for `status`).
    func apiCallsLastHour(in context: ObjectContext, now: Date = Date()) throws -> Int {
        try context.count(FetchRequest<APICall>(predicate: \.$made > now.addingTimeInterval(-APIBudget.window)))
    }
}
