import Foundation
import GraphStore
import PhotoFeed

/// What a download run has to do, decided from the catalog and a look at the files folder.
struct DownloadPlan: Sendable, Equatable {
    var jobs: [DownloadJob] = []
    /// Verified earlier and still on disk with the recorded size.
    var present = 0
    /// Unavailable and still inside their back-off.
    var unavailable = 0
    /// Photos the feed gave none of the sizes asked for: nothing to download.
    var withoutSize = 0
}

extension Catalog {
    /// A day after the first refusal, doubling with each one after (capped at 64 days).
    static func backOff(refusals: Int) -> TimeInterval { 86_400 * Double(1 << min(max(0, refusals - 1), 6)) }

    /// Photos (of `photographer`, or all) whose file is to be downloaded: no verified file yet, or
    /// one missing from `folder` or of another size there (a host of a shared catalog that has
    /// not downloaded it). The disk is asked with one `stat` per recorded file, never a hash.
    func downloadPlan(photographer: String?, sizes preference: [String], folder: String, retryUnavailable: Bool, now: Date = Date()) throws -> DownloadPlan {
        try withContext { context in
            try context.readingOneSnapshot {
                let predicate: FetchPredicate<Photo>? = photographer.map { name in .whose(\.$whoTook, \.$name == name) }
                let photos = try context.fetchColumns(FetchRequest<Photo>(predicate: predicate, sortBy: [.ascending(\.$unique, .numericText)]),
                                                      [\.$unique, \.$imageURL, \.$sizes])
                let files = try Self.fileRows(in: context)
                var plan = DownloadPlan()
                let sizes = try photos.values(\.$sizes)
                for (index, (id, url)) in zip(try photos.values(\.$unique), try photos.values(\.$imageURL)).enumerated() {
                    let file = files[id]
                    if let file, file.isVerified, Self.sizeOnDisk(folder + "/" + file.path) == file.size {
                        plan.present += 1
                    } else if let file, !file.isVerified, !retryUnavailable, let after = file.retryAfter, after > now {
                        plan.unavailable += 1
                    } else if let (label, url) = ImageSize.choose(from: Self.labels(file, preference), imageURL: url,
                                                                  sizes: PhotoSize.decoded(sizes[index])) {
                        plan.jobs.append(DownloadJob(photoID: id, sizeLabel: label, url: url, refusals: file?.refusals ?? 0))
                    } else {
                        plan.withoutSize += 1
                    }
                }
                return plan
            }
        }
    }

    /// The size labels to try for a photo: the one its verified file has (another host's copy, the
    /// catalog's reference) before this host's preference.
    private static func labels(_ file: PhotoFile?, _ preference: [String]) -> [String] {
        guard let file, file.isVerified else { return preference }
        return [file.sizeLabel] + preference
    }

    /// Records finished downloads in one transaction: verified files, and refusals with their
    /// back-off. A failed transfer leaves the row as it was (tried again next run).
    func record(_ results: [(DownloadJob, DownloadOutcome)], now: Date = Date()) throws {
        let relevant = results.filter { if case .downloaded = $0.1 { true } else if case .unavailable = $0.1 { true } else { false } }
        guard !relevant.isEmpty else { return }
        try withContext(mergePolicy: .objectTrump) { context in
            let existing = try context.fetch(FetchRequest<PhotoFile>(predicate: .isIn(\.$photo, relevant.map(\.0.photoID))))
            var rows = Dictionary(existing.map { ($0.photo, $0) }, uniquingKeysWith: { first, _ in first })
            for (job, outcome) in relevant {
                let row = rows[job.photoID] ?? context.insert(PhotoFile.self)
                row.photo = job.photoID
                rows[job.photoID] = row
                Self.apply(outcome, job: job, to: row, now: now)
            }
            try context.save()
        }
    }

    /// Verified files by photo id, for `verify`, `show` and `list`.
    func verifiedFiles() throws -> [String: VerifiedFile] {
        try withContext { context in
            try context.readingOneSnapshot { try Self.fileRows(in: context).compactMapValues(\.verified) }
        }
    }

    /// Verified files of `photoIDs` (what a delete is about to remove), by photo id.
    func verifiedFiles(of photoIDs: [String]) throws -> [String: VerifiedFile] {
        try withContext { context in
            let rows = try context.fetch(FetchRequest<PhotoFile>(predicate: .isIn(\.$photo, photoIDs)))
            return Dictionary(rows.compactMap { row in row.verified.map { (row.photo, $0) } }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The photo's verified file and when it was downloaded, for `show`.
    func file(ofPhoto id: String) throws -> (VerifiedFile, Date?)? {
        try withContext { context in
            guard let row = try context.fetch(FetchRequest<PhotoFile>(predicate: \.$photo == id, limit: 1)).first,
                  let file = row.verified else { return nil }
            return (file, row.downloaded)
        }
    }

    /// The file counts `status` shows.
    static func fileCounts(in context: ObjectContext) throws -> (files: Int, bytes: Int, unavailable: Int) {
        let rows = try context.fetchColumns(FetchRequest<PhotoFile>(), [\.$sha256, \.$size])
        let verified = zip(try rows.values(\.$sha256), try rows.values(\.$size)).filter { !$0.0.isEmpty }
        return (verified.count, verified.reduce(0) { $0 + $1.1 }, rows.ids.count - verified.count)
    }

    private static func apply(_ outcome: DownloadOutcome, job: DownloadJob, to row: PhotoFile, now: Date) {
        switch outcome {
        case .downloaded(let file):
            (row.path, row.size, row.sha256, row.sizeLabel, row.contentType, row.downloaded) =
                (file.path, file.size, file.sha256, file.sizeLabel, file.contentType, now)
            (row.unavailableStatus, row.unavailableReason, row.unavailableSince, row.retryAfter, row.refusals) = (0, nil, nil, nil, 0)
        case .unavailable(let status, let reason):
            // A file verified earlier (by another host, say) stays the reference.
            if row.isVerified { return }
            let refusals = job.refusals + 1
            row.refusals = refusals
            (row.unavailableStatus, row.unavailableReason, row.sizeLabel) = (status, reason, job.sizeLabel)
            row.unavailableSince = row.unavailableSince ?? now
            row.retryAfter = now.addingTimeInterval(backOff(refusals: refusals))
        case .failed, .stopped, .noSpace, .restartNeeded:
            return
        }
    }

    private static func fileRows(in context: ObjectContext) throws -> [String: PhotoFile] {
        Dictionary(try context.fetch(FetchRequest<PhotoFile>()).map { ($0.photo, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The size of the file at `path`, or nil when there is none (a link does not count).
    static func sizeOnDisk(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}

extension PhotoFile {
    var verified: VerifiedFile? {
        isVerified ? VerifiedFile(path: path, size: size, sha256: sha256, sizeLabel: sizeLabel, contentType: contentType) : nil
    }
}
