/// A minimal gzip writer for test fixtures, so no zlib binding or fixture
/// files are needed.
///
/// It emits one fixed-Huffman deflate block of literals, turning runs of a
/// repeated byte into 258-byte back-references. Any input gives a valid gzip
/// stream; runs compress about 250:1, which is what "a small body that inflates
/// past the cap" needs.
public enum Gzip {
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0b011, count: 3)  // BFINAL=1, BTYPE=01 (fixed Huffman)
        var index = 0
        while index < input.count {
            let byte = input[index]
            bits.writeLiteral(byte)
            index += 1
            while index + 258 <= input.count, input[index..<(index + 258)].allSatisfy({ $0 == byte }) {
                bits.writeHuffman(0b1100_0101, count: 8)  // length code 285 = 258 bytes
                bits.writeHuffman(0, count: 5)            // distance code 0 = 1 byte back
                index += 258
            }
        }
        bits.writeHuffman(0, count: 7)  // end of block (256)
        return header + bits.finish() + littleEndian(crc32(input)) + littleEndian(UInt32(truncatingIfNeeded: input.count))
    }

    /// Magic, deflate, no flags, no mtime, unknown OS.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}

/// Deflate's bit order: plain values go in LSB first, Huffman codes MSB first.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var pending = 0

    mutating func write(_ value: UInt32, count: Int) {
        buffer |= value << pending
        pending += count
        while pending >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            pending -= 8
        }
    }

    mutating func writeHuffman(_ code: UInt32, count: Int) {
        let reversed = (0..<count).reduce(UInt32(0)) { $0 << 1 | (code >> $1) & 1 }
        write(reversed, count: count)
    }

    /// Fixed literal codes (RFC 1951 §3.2.6): 0-143 in 8 bits, 144-255 in 9.
    mutating func writeLiteral(_ byte: UInt8) {
        if byte < 144 {
            writeHuffman(0x30 + UInt32(byte), count: 8)
        } else {
            writeHuffman(0x190 + UInt32(byte) - 144, count: 9)
        }
    }

    mutating func finish() -> [UInt8] {
        if pending > 0 {
            write(0, count: 8 - pending)
        }
        return bytes
    }
}
