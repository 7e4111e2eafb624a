import PhotoSyncTestSupport

/// The photos the feed knows and how they change between (and during) fetches: owners rename
/// themselves, photos move to other owners, titles and dates change, new photos appear.
/// Small pools on purpose, so fetches keep meeting what earlier ones stored.
struct FeedWorld {
    static let namePool = ["Ana", "Bo", "Cy", "Dee", "Eli"]
    static let titles = ["Harbour", "Dusk", "Fog", ""]
    static let texts = ["", "long exposure", "f/8"]

    /// Photo id -> the item as the feed currently sends it (owner name taken from `names`).
    private(set) var items: [String: ModelItem] = [:]
    /// Owner NSID -> current display name.
    private(set) var names: [String: String] = [:]
    private var fresh = 0

    init(random: inout SeededRandom) {
        for owner in 1...6 { names["\(owner)@N0"] = random.pick(Self.namePool) }
        for id in 1...24 { items[String(id)] = newItem(String(id), random: &random) }
    }

    var ids: [String] { items.keys.sorted() }
    var ownerNames: [String] { Array(Set(names.values)).sorted() }

    /// The item for `id` as the feed sends it now.
    func item(_ id: String) -> ModelItem {
        var item = items[id]!
        item.ownerName = names[item.ownerID]!
        return item
    }

    /// One random change: a rename (possibly to a name another owner uses), a photo moving to
    /// another owner, or new values for one photo.
    mutating func change(random: inout SeededRandom) {
        let id = random.pick(ids)
        switch random.int(0...5) {
        case 0: names[random.pick(names.keys.sorted())] = random.pick(Self.namePool)
        case 1: items[id]!.ownerID = random.pick(names.keys.sorted())
        case 2: items[id]!.title = random.pick(Self.titles)
        case 3: items[id]!.text = random.pick(Self.texts)
        case 4: items[id]!.uploaded = random.chance(0.2) ? nil : 1_700_000_000 + random.int(0...3)
        default: items[id]!.imageURL = "https://live.example.test/\(id)_\(random.int(0...1)).jpg"
        }
    }

    /// A photo never seen before, by a new owner with a new name when `newOwner` (the only kind
    /// of photo an `error` fetch can store into a non-empty catalog).
    mutating func newPhoto(newOwner: Bool, random: inout SeededRandom, uploaded: Int? = nil) -> String {
        fresh += 1
        let id = "\(100 + fresh)"
        if newOwner {
            let owner = "\(100 + fresh)@N0"
            names[owner] = "P\(fresh)"
        }
        items[id] = newItem(id, random: &random, owner: newOwner ? "\(100 + fresh)@N0" : nil)
        if let uploaded { items[id]!.uploaded = uploaded }
        return id
    }

    private func newItem(_ id: String, random: inout SeededRandom, owner: String? = nil) -> ModelItem {
        ModelItem(
            id: id, ownerID: owner ?? random.pick(names.keys.sorted()), ownerName: "", title: random.pick(Self.titles),
            text: random.pick(Self.texts), uploaded: random.chance(0.2) ? nil : 1_700_000_000 + random.int(0...3),
            imageURL: "https://live.example.test/\(id)_0.jpg")
    }
}
