/// CoreFoundation's own proleptic-Gregorian arithmetic in UTC (`CFDate.c`:
/// `CFGregorianDateGetAbsoluteTime` and `CFAbsoluteTimeGetGregorianDate`), which the XML
/// property-list reader and writer use for `<date>`.
///
/// It is reproduced operation by operation, in the same floating-point order, because its
/// results decide the exact bytes: fields are not range-checked on the way in (hour 25 is the
/// next day; months outside 1…13 add no days, as in current CF), and on the way out the time is
/// floored to whole seconds (so −0.5 s is `2000-12-31T23:59:59Z`).
///
/// Years are relative to 2001 internally, as in CF ("absolute year 0").
enum CFGregorianCalendar {
  /// Days before the first of each month in a common year; months 1…13 (13 is "after December").
  private static let daysBeforeMonth: [Int32] = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

  /// CF's `isleap`, taking a year relative to 2001.
  @inline(__always)
  static func isLeap(_ year: Int64) -> Bool {
    var cycle = (year + 1) % 400
    if cycle < 0 { cycle = -cycle }
    return cycle & 3 == 0 && cycle != 100 && cycle != 200 && cycle != 300
  }

  @inline(__always)
  private static func daysInYear(_ year: Int64) -> Int64 { isLeap(year) ? 366 : 365 }

  /// `CFGregorianDateGetAbsoluteTime(date, NULL)`: seconds since 2001-01-01T00:00:00Z.
  static func absoluteTime(year: Int64, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) -> Double {
    var relativeYear = year - 2001
    var absolute = 0.0
    let cycles = relativeYear / 400
    absolute += Double(cycles) * 146097.0
    relativeYear -= cycles * 400
    if relativeYear < 0 {
      var index = relativeYear
      while index < 0 {
        absolute -= Double(daysInYear(index))
        index += 1
      }
    } else {
      var index: Int64 = 0
      while index < relativeYear {
        absolute += Double(daysInYear(index))
        index += 1
      }
    }
    if month >= 1 && month <= 13 {
      absolute += Double(daysBeforeMonth[Int(month)] + (month > 2 && isLeap(relativeYear) ? 1 : 0))
    }
    absolute += Double(day - 1)
    var time = 86400.0 * absolute
    time += 3600.0 * Double(hour) + 60.0 * Double(minute) + Double(second)
    return time
  }

  /// The fields CF's XML writer prints for `time`: `CFAbsoluteTimeGetGregorianDate(time, NULL)`
  /// with the seconds cast to `int32_t`. `nil` for NaN, infinities and times so far out that CF's
  /// own conversions would overflow (beyond about ±2.5 × 10^16 years).
  static func fields(_ time: Double) -> (year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32)? {
    guard time.isFinite else { return nil }
    let days = (time / 86400.0).rounded(.down)
    guard days > -9.2e18 && days < 9.2e18 else { return nil }
    var (year, month, day) = yearMonthDay(Int64(days))
    if Int64(Int32.max) - 2001 < year { year = Int64(Int32.max) - 2001 }
    guard let hour = modulo((time / 3600.0).rounded(.down), 24),
      let minute = modulo((time / 60.0).rounded(.down), 60)
    else { return nil }
    var seconds = time - (time / 60.0).rounded(.down) * 60.0
    if seconds < 0 { seconds += 60 }
    guard seconds > -2_147_483_649.0 && seconds < 2_147_483_648.0 else { return nil }
    return (Int32(truncatingIfNeeded: year + 2001), month, day, hour, minute, Int32(seconds))
  }

  /// CF's `__CFDoubleModToInt`, including its detour through `float`.
  private static func modulo(_ value: Double, _ modulus: Int32) -> Int32? {
    let remainder = (value - (value / Double(modulus)).rounded(.down) * Double(modulus)).rounded(.down)
    let narrowed = Float(remainder)
    guard narrowed > -2_147_483_648.0 && narrowed < 2_147_483_648.0 else { return nil }
    var result = Int32(narrowed)
    if result < 0 { result += modulus }
    return result
  }

  /// CF's `__CFYMDFromAbsolute`: the year (relative to 2001), month and day of day number
  /// `absolute` (day 0 is 2001-01-01).
  static func yearMonthDay(_ absolute: Int64) -> (year: Int64, month: Int32, day: Int32) {
    let cycles = absolute / 146097
    var year = cycles * 400
    var remaining = absolute - cycles * 146097
    while remaining < 0 {
      year -= 1
      remaining += daysInYear(year)
    }
    var yearLength = daysInYear(year)
    while yearLength <= remaining {
      year += 1
      remaining -= yearLength
      yearLength = daysInYear(year)
    }
    let leap = isLeap(year)
    func before(_ month: Int32) -> Int64 {
      Int64(daysBeforeMonth[Int(month)] + (month > 2 && leap ? 1 : 0))
    }
    var month = Int32(remaining / 33 + 1)
    while month + 1 <= 12 && before(month + 1) <= remaining { month += 1 }
    return (year, month, Int32(remaining - before(month) + 1))
  }
}
