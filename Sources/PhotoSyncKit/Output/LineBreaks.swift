/// Line breaks found in UTF-8 without reading characters: what `Character.isNewline` matches
/// (LF, VT, FF, CR, NEL, LS, PS).
enum LineBreaks {
    /// Whether `bytes` hold a line break.
    static func found(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0x0A...0x0D: return true
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: return true
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] | 1) == 0xA9: return true
            default: continue
            }
        }
        return false
    }
}
