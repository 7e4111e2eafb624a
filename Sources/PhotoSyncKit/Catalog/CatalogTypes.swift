import PhotoFeed
import Foundation

/// How a fetch reconciles photos and photographers that are already in the catalog.
public enum MergePolicyChoice: String, CaseIterable, Sendable, Codable {
    case objectTrump = "object-trump"
    case storeTrump = "store-trump"
    case error
}

/// Everything one `photosync fetch` run needs, already resolved from flags, environment and config.
public struct FetchSettings: Sendable {
    public var endpoint: String
    public var apiKey: String?
    /// Where the key came from (`--api-key`, `PHOTOSYNC_API_KEY`, or the config file's path), for
    /// messages that must not show the key itself.
    public var apiKeySource = "--api-key"
    public var pages: Int?
    public var maxPages: Int
    public var perPage: Int
    public var mergePolicy: MergePolicyChoice
    /// Seconds one request attempt may take (`--timeout`).
    public var timeout: Double
    /// Seconds the whole fetch may take (`--max-time`, `max_time`); nil: no limit.
    public var maxTime: Double?
    /// When the whole fetch must end: `maxTime` counted from the command's start (nil: no limit).
    public var deadline: FetchDeadline?
    public var retries: Int
    public var dryRun: Bool
    public var waitForLock: Bool
    /// Walk to the page limit even when an earlier fetch of the same source completed.
    public var full = false
    /// Calls the key may make in an hour before a fetch stops (`api_budget`).
    public var apiBudget = SettingsResolver.defaultAPIBudget
    /// `flickr.photos.search` with these terms instead of `flickr.photos.getRecent`, when set.
    public var search: FeedSearch?
    /// PEM file of CA certificates that verify the endpoint instead of the system's (`--ca-file`).
    public var caFile: String?
    /// Days of change history the fetch keeps; older history is deleted (`history_days`).
    public var historyDays = SettingsResolver.defaultHistoryDays
    /// Photos re-checked after the fetch, within what is left of the budget (`--recheck`, `recheck_per_run`).
    public var recheckPerRun = 0

    public init(
        endpoint: String, apiKey: String?, pages: Int?, maxPages: Int, perPage: Int,
        mergePolicy: MergePolicyChoice, timeout: Double, retries: Int, dryRun: Bool, waitForLock: Bool
    ) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.pages = pages
        self.maxPages = maxPages
        self.perPage = perPage
        self.mergePolicy = mergePolicy
        self.timeout = timeout
        self.retries = retries
        self.dryRun = dryRun
        self.waitForLock = waitForLock
    }
}

/// The counts a fetch reports (stdout summary, `--format json`, and `status`).
public struct FetchSummary: Sendable, Encodable, Equatable {
    public var pages = 0
    public var received = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Photos seen again in the same fetch (on the same page or a later one): stored once, counted once.
    public var repeated = 0
    public var skipped = 0
    /// Photos kept with an unknown upload time because the feed's was unusable (outside 1970–2099).
    public var datesUnknown = 0
    /// Photos skipped because a delete excluded their id or their photographer.
    public var excluded = 0
    public var photographersInserted = 0
    public var photographersRemoved = 0
    /// Photographers renamed because their account (NSID) came under a new name (``AccountRenames``).
    public var photographersRenamed = 0
    /// Pages the API reported beyond the page limit that ended the fetch (0 when none).
    public var morePages = 0
    /// Pages within the limit an incremental fetch did not ask for: a page of known photos ended it.
    public var pagesSkippedKnown = 0
    /// No photo of this fetch was in the catalog although an earlier fetch of its source succeeded:
    /// photos may have been missed between the two.
    public var gap = false
    /// Pages fetched to finish an earlier walk of the source that a page limit cut (0 if none).
    public var backfillPages = 0
    /// Search windows one second wide that still held more than the 4,000 results Flickr serves:
    /// what lies past the first 4,000 of each was out of reach.
    public var windowsOverCap = 0
    /// A dry run's changes, as `changes` would list them (the first ``dryRunChangesShown``), and
    /// how many there were; nil for a run that saved (they are in `changes`).
    public var changes: [CatalogChange]? = nil
    public var changesTotal: Int? = nil
    /// The re-checks the run made after the fetch (`--recheck N`), nil when it made none.
    public var recheck: RecheckSummary? = nil

    /// Enough for a person or a script to judge a dry run; the total says what was left out.
    public static let dryRunChangesShown = 1_000

    public init() {}

    enum CodingKeys: String, CodingKey {
        case pages, received, inserted, updated, unchanged, repeated, skipped, excluded
        case datesUnknown = "dates_unknown"
        case photographersInserted = "photographers_inserted"
        case photographersRemoved = "photographers_removed"
        case photographersRenamed = "photographers_renamed"
        case morePages = "more_pages"
        case pagesSkippedKnown = "pages_skipped_known"
        case gap
        case backfillPages = "backfill_pages"
        case windowsOverCap = "windows_over_cap"
        case changes
        case changesTotal = "changes_total"
        case recheck
    }
}

/// One photo as the `list` command shows it.
public struct PhotoListing: Sendable, Equatable {
    public var id: String
    public var title: String
    public var subtitle: String
    public var photographer: String
    public var imageURL: String
    public var uploaded: Date?
    /// The query or feed that first brought it (`recent`, `search tags=cats`; empty if unknown).
    public var source = ""
    /// License, date taken, geo, last update, views, media (read for JSON and `show`).
    public var metadata = PhotoMetadata()
    /// The photographer's NSID.
    public var ownerID = ""
    /// The license's name and URL as `licenses.getInfo` gave them (nil: not known yet).
    public var licenseInfo: FeedLicense?
    /// Whether a re-check found it gone upstream, and when it was last re-checked.
    public var check = PhotoCheck()
}

/// What `recheck` recorded of a photo (issue 26): all nil until it is re-checked.
public struct PhotoCheck: Sendable, Equatable {
    /// When it was found gone upstream, and why (`deleted`, `private`); nil while it is there.
    public var gone: Date?
    public var goneReason: String?
    /// The last re-check.
    public var checked: Date?
}

/// One photographer as the `photographers` command shows it.
public struct PhotographerListing: Sendable, Equatable {
    public var name: String
    public var photos: Int
}

/// The order of `photographers`: by name, or most photos first (then by name).
public enum PhotographerSort: String, CaseIterable, Sendable {
    case name, photos
}

/// The order of `list`.
public enum ListSort: String, CaseIterable, Sendable {
    case title, uploaded, id
}

/// What a `delete` removed.
public struct DeletionReport: Sendable, Equatable {
    public var photoIDs: [String]
    public var photographersRemoved: [String]
    /// The deleted photos' files, relative to the files folder: removed after the commit.
    public var filePaths: [String] = []
}

/// One recorded fetch run.
public struct FetchRunRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable { case running, succeeded, failed, interrupted
        /// Still marked running when a later fetch started: killed, or the machine went down.
        case abandoned
    }
    public var started: Date
    public var finished: Date?
    public var outcome: Outcome
    public var summary: FetchSummary
    public var error: String?
    /// The run's id: `changes --run N` and `--since run:N` name it (nil before it is saved).
    public var id: Int? = nil
}

/// Counts and recent runs, for `status`.
public struct CatalogStatus: Sendable, Equatable {
    public var photos: Int
    public var photographers: Int
    public var runs: [FetchRunRecord]
    /// Photo ids and photographers deletes excluded from later fetches.
    public var excludedPhotos = 0
    public var excludedPhotographers = 0
    /// API calls recorded in the last hour, all keys together.
    public var apiCallsLastHour = 0
    /// Verified image files the catalog records (on any host), their bytes, the photos without
    /// one, and those marked unavailable.
    public var files = 0
    public var fileBytes = 0
    public var filesPending = 0
    public var filesUnavailable = 0
    /// Every source fetched so far, by label: complete, or catching up on a cut walk.
    public var sources: [SourceStatus] = []
}

/// One source as `status` shows it (issue 25).
public struct SourceStatus: Sendable, Equatable {
    /// As `list` spells it: `recent`, `search tags=cats`.
    public var source: String
    public var lastSuccess: Date?
    /// A walk a page limit cut is still to be finished by later fetches.
    public var backfillPending: Bool
    /// Fetched successfully, nothing left to catch up.
    public var complete: Bool { lastSuccess != nil && !backfillPending }
}
