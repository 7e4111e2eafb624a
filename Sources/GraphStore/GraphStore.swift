// GraphStore: a Core Data-style object graph on SQLite.
