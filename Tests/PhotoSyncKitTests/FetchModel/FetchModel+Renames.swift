@testable import PhotoSyncKit

/// Renamed accounts in the model (docs/commands.md, "Renamed accounts"): under `object-trump`,
/// before a page is saved, an owner id the page gives under exactly one name, held by exactly one
/// photographer under another name, renames that photographer, unless a photographer held the
/// new name before any rename of the page or a delete excluded it.
extension FetchModel {
    /// The renames `items` call for, as (old name, new name), judged on the catalog as it is.
    func renames(for items: [ModelItem]) -> [(from: String, to: String)] {
        var sent: [String: String?] = [:]
        for item in items where !item.ownerID.isEmpty {
            if let earlier = sent[item.ownerID], earlier != item.ownerName { sent[item.ownerID] = .some(nil) } else { sent[item.ownerID] = item.ownerName }
        }
        return sent.compactMap { ownerID, name -> (from: String, to: String)? in
            guard let name, owners[name] == nil, excludedNames[name] == nil else { return nil }
            let holders = owners.filter { $0.value == ownerID }.map(\.key)
            return holders.count == 1 ? (holders[0], name) : nil
        }
    }

    /// Renames a photographer, their photos following.
    mutating func rename(_ old: String, to new: String) {
        guard let ownerID = owners.removeValue(forKey: old) else { return }
        owners[new] = ownerID
        for (id, photo) in photos where photo.photographer == old { photos[id]!.photographer = new }
    }
}
