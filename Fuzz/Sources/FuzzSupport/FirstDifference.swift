public import PropertyLists
import FoundationEssentials

/// Describes where two values first differ, or returns `nil` when they are equal (`==`).
///
/// The answer names a path such as `root["items"][3]` and both sides there, shortened, so that a
/// fuzzer crash report says what changed without dumping a whole document.
///
/// With `integralRealsMayBecomeIntegers`, a real on the left that holds exactly the integer on
/// the right counts as equal. That is the one change JSON documents (as plutil does): `1.0` is
/// written `1` and reads back as an integer.
public func firstDifference(
  _ lhs: PropertyListValue, _ rhs: PropertyListValue, at path: String = "root",
  integralRealsMayBecomeIntegers relaxed: Bool = false
) -> String? {
  if lhs == rhs { return nil }
  switch (lhs, rhs) {
  case (.array(let left), .array(let right)):
    guard left.count == right.count else {
      return "\(path): array of \(left.count) elements became \(right.count)"
    }
    for index in left.indices {
      if let found = firstDifference(
        left[index], right[index], at: "\(path)[\(index)]", integralRealsMayBecomeIntegers: relaxed)
      {
        return found
      }
    }
    if relaxed { return nil }
  case (.dictionary(let left), .dictionary(let right)):
    for (key, value) in left {
      guard let other = right[key] else {
        return "\(path): key \(shortened(key)) is missing after the round trip"
      }
      if let found = firstDifference(
        value, other, at: "\(path)[\(shortened(key))]", integralRealsMayBecomeIntegers: relaxed)
      {
        return found
      }
    }
    for key in right.keys where left[key] == nil {
      return "\(path): key \(shortened(key)) appeared after the round trip"
    }
    if relaxed { return nil }
  case (.real(let real, _), .integer(let integer)) where relaxed:
    if let exact = Int64(exactly: real), integer == PropertyListInteger(exact) { return nil }
    if let exact = UInt64(exactly: real), integer == PropertyListInteger(exact) { return nil }
  default:
    break
  }
  // In strict mode, equal children but unequal containers would mean `==` and this walk disagree.
  return "\(path): \(summary(lhs)) became \(summary(rhs))"
}

/// A one-line description of a value: its type and, for scalars, a shortened rendering.
func summary(_ value: PropertyListValue) -> String {
  switch value {
  case .string(let string): "string \(shortened(string)) (\(string.utf8.count) UTF-8 bytes)"
  case .integer(let integer): "integer \(integer)"
  case .real(let real, let width): "real \(real) (\(width))"
  case .bool(let bool): "bool \(bool)"
  case .date(let date): "date \(date.timeIntervalSinceReferenceDate) s since 2001"
  case .data(let data): "data of \(data.count) bytes \(data.prefix(16).map { hex($0) }.joined())"
  case .array(let array): "array of \(array.count)"
  case .dictionary(let dictionary): "dictionary of \(dictionary.count)"
  case .uid(let uid): "uid \(uid)"
  }
}

/// The string quoted and escaped (control characters and non-ASCII as `\u{…}`), cut at 48 scalars.
func shortened(_ string: String) -> String {
  var result = "\""
  var scalars = 0
  for scalar in string.unicodeScalars {
    if scalars == 48 {
      result += "…"
      break
    }
    scalars += 1
    if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "\\" {
      result.unicodeScalars.append(scalar)
    } else {
      result += "\\u{\(String(scalar.value, radix: 16))}"
    }
  }
  return result + "\""
}

private func hex(_ byte: UInt8) -> String {
  let digits = Array("0123456789abcdef".utf8)
  return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
}
