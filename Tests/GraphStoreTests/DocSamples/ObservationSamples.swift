import Foundation
import GraphStore

// The code samples of Observation.md, compiled (see GettingStartedSamples.swift).

struct ObservationSamples {
    typealias Photo = ContextSamples.Photo
    typealias Photographer = ContextSamples.Photographer

    func merge(_ container: PersistentContainer, _ context: ObjectContext) async throws { // scaffold
        // doc: Observation.md #1
        let changes = try await container.performBackgroundTask { background in
            var saved = ChangeSet()
            background.onDidSave { saved = $0 }
            try background.fetch(FetchRequest<Photo>(predicate: \.$unique == "5341"))[0].title = "Dunes at dusk"
            try background.save()
            return saved
        }
        try context.mergeChanges(from: changes)  // on the context's own task: its photo shows "Dunes at dusk"
        // end doc
    }

    func observe(_ container: PersistentContainer) async throws { // scaffold
        // doc: Observation.md #2
        let request = FetchRequest<Photo>(predicate: .whose(\.$photographer, \.$name == "Ana"), sortBy: [.ascending(\.$title)])
        for try await titles in container.observe(request, { photos in photos.map(\.title) }) {
            print(titles)  // now, then after every save that changes a Photo or a Photographer
        }
        // end doc
    }

    func callback(_ container: PersistentContainer) { // scaffold
        // doc: Observation.md #3
        let observation = container.observe { context in
            (photos: try context.count(FetchRequest<Photo>()), photographers: try context.count(FetchRequest<Photographer>()))
        }.start(onChange: { counts in print(counts.photos, counts.photographers) })
        // … until
        observation.cancel()
        // end doc
    }

    func polling(_ model: ManagedObjectModel, _ url: String) async throws { // scaffold
        // doc: Observation.md #4
        let shared = try PersistentContainer(model: model, location: .postgres(url), tracksHistory: true)
        for try await count in shared.observe(pollingHistoryEvery: .seconds(1), { context in try context.count(FetchRequest<Photo>()) }) {
            print(count)
        }
        // end doc
    }
}
