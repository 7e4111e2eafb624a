import Foundation

/// Timestamps in every output format: ISO 8601 in UTC to the second, like `2024-05-01T12:00:00Z`.
///
/// Written out by hand from the Gregorian reform (1582-10-15) to year 9999: Foundation's formatter
/// cost about 4 µs a date, a fifth of listing a prolific photographer. Other dates, which the API
/// never sends, go through Foundation (it switches to the Julian calendar before the reform).
func timestamp(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds >= -12_219_292_800, seconds < 253_402_300_800 else { return date.formatted(.iso8601) }
    let total = Int(seconds)
    let (days, secondOfDay) = (total.floorDivided(by: 86_400), total.floorModulo(86_400))
    let (year, month, day) = civilDate(daysSince1970: days)
    return String(unsafeUninitializedCapacity: 20) { buffer in
        var index = 0
        func put(_ value: Int, digits: Int, then separator: UInt8) {
            var rest = value
            for offset in stride(from: digits - 1, through: 0, by: -1) {
                buffer[index + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer[index + digits] = separator
            index += digits + 1
        }
        put(year, digits: 4, then: UInt8(ascii: "-"))
        put(month, digits: 2, then: UInt8(ascii: "-"))
        put(day, digits: 2, then: UInt8(ascii: "T"))
        put(secondOfDay / 3600, digits: 2, then: UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, digits: 2, then: UInt8(ascii: ":"))
        put(secondOfDay % 60, digits: 2, then: UInt8(ascii: "Z"))
        return index
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
private func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468  // days since 0000-03-01
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
