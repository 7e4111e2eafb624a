/// Where and why JSON text is not valid JSON. `offset` is 0-based into the body;
/// messages show it 1-based ("at byte 1" is the first byte), as editors and `cmp` do.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var problem: String
    var offset: Int

    var description: String { "\(problem) at byte \(offset + 1)" }
}
