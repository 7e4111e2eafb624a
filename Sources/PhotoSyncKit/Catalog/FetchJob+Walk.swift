extension FetchJob {
    /// How a walk asks for its pages.
    enum Walk: Equatable {
        /// What is new, from page 1; `incremental`: a page of known photos ends it.
        case new(incremental: Bool)
        /// One upload window of a search past the cap.
        case window
        /// The rest of a walk an earlier limit cut.
        case catchUp

        /// Whether the next page downloads while one is saved. Not when a page may end the walk:
        /// the request not made is quota saved.
        var prefetches: Bool { self == .new(incremental: false) || self == .window }
    }
}
