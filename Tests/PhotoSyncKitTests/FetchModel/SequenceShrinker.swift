/// Shrinks a failing sequence: drops runs of steps, then pages and items of fetches and ids of
/// deletes and restores, keeping each cut while the sequence still fails, until nothing more goes
/// (or the budget of runs is spent).
struct SequenceShrinker {
    let fails: ([ModelStep]) -> ModelFailure?
    var budget = 400

    /// The shortest failing sequence found, and its failure.
    mutating func shrink(_ steps: [ModelStep], _ failure: ModelFailure) -> ([ModelStep], ModelFailure) {
        var best = (Array(steps.prefix(failure.step + 1)), failure)
        var progress = true
        while progress && budget > 0 {
            progress = dropSteps(&best)
            for index in best.0.indices.reversed() where index < best.0.count {
                for candidate in Self.smaller(best.0[index]) where budget > 0 {
                    var steps = best.0
                    steps[index] = candidate
                    if accept(steps, into: &best) { progress = true; break }
                }
            }
        }
        return best
    }

    /// Removes chunks of steps, halving the chunk size down to one step.
    private mutating func dropSteps(_ best: inout ([ModelStep], ModelFailure)) -> Bool {
        var progress = false
        var chunk = max(1, best.0.count / 2)
        while chunk >= 1 && budget > 0 {
            var start = 0
            while start < best.0.count && budget > 0 {
                var steps = best.0
                steps.removeSubrange(start..<min(start + chunk, steps.count))
                if !steps.isEmpty && accept(steps, into: &best) { progress = true } else { start += chunk }
            }
            chunk /= 2
        }
        return progress
    }

    private mutating func accept(_ steps: [ModelStep], into best: inout ([ModelStep], ModelFailure)) -> Bool {
        budget -= 1
        guard let failure = fails(steps) else { return false }
        best = (Array(steps.prefix(failure.step + 1)), failure)
        return true
    }

    /// One-cut-smaller versions of `step`: a page or an item less, a lower page limit, an id less.
    static func smaller(_ step: ModelStep) -> [ModelStep] {
        switch step {
        case .fetch(let fetch):
            var candidates: [ModelStep] = []
            for page in fetch.pages.indices where fetch.pages.count > 1 {
                var smaller = fetch
                smaller.pages.remove(at: page)
                smaller.limit = min(smaller.limit, smaller.pages.count + 1)
                candidates.append(.fetch(smaller))
            }
            for page in fetch.pages.indices {
                for item in fetch.pages[page].indices {
                    var smaller = fetch
                    smaller.pages[page].remove(at: item)
                    candidates.append(.fetch(smaller))
                }
            }
            if fetch.dryRun {
                var real = fetch
                real.dryRun = false
                candidates.append(.fetch(real))
            }
            if fetch.failAt != nil {
                var whole = fetch
                whole.failAt = nil
                candidates.append(.fetch(whole))
            }
            return candidates
        case .deletePhotos(let ids, let remembering, let dryRun) where ids.count > 1:
            return ids.indices.map { index in
                var fewer = ids
                fewer.remove(at: index)
                return .deletePhotos(fewer, remembering: remembering, dryRun: dryRun)
            }
        case .restorePhotos(let ids) where ids.count > 1:
            return ids.indices.map { index in
                var fewer = ids
                fewer.remove(at: index)
                return .restorePhotos(fewer)
            }
        default:
            return []
        }
    }
}
