internal import FoundationEssentials

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

extension HostEnvironment {
  /// The environment variable that names the host identifier outright (a container image that
  /// shares one `/etc/machine-id`, a test).
  public static let hostIdentifierVariable = "STASIS_HOST_UUID"

  /// This machine's identifier in the form macOS gives `ByHost` file names (the hardware UUID,
  /// upper-case `8-4-4-4-12` hex): `$STASIS_HOST_UUID` when set and non-empty, else the
  /// systemd/D-Bus machine id (`/etc/machine-id`, then `/var/lib/dbus/machine-id`: 32 hex digits,
  /// stable for the installation) in that form, else one made from the host name, so that a
  /// machine without a machine id still names its files the same way every time.
  public static func hostIdentifier(from variables: [String: String]) -> String {
    if let explicit = variables[hostIdentifierVariable], !explicit.isEmpty { return explicit }
    return machineIdentifier
  }

  /// The machine's identifier, read once per process (every environment made asks for it).
  static let machineIdentifier: String = readMachineIdentifier()

  static func readMachineIdentifier() -> String {
    for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
      if let text = try? String(contentsOfFile: path, encoding: .utf8), let identifier = uuidForm(text) { return identifier }
    }
    var name = [CChar](repeating: 0, count: 256)
    _ = gethostname(&name, name.count - 1)
    let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Two FNV-1a hashes of the host name make the 32 hex digits.
    var digits = ""
    for seed: UInt64 in [0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4] {
      var hash = seed
      for byte in host.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
      }
      let hex = String(hash, radix: 16)
      digits += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return uuidForm(digits) ?? digits
  }

  /// 32 hex digits (surrounding white space ignored) as `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
  static func uuidForm(_ text: String) -> String? {
    let hex = String(text.filter { !$0.isWhitespace }).uppercased()
    guard hex.count == 32, hex.allSatisfy({ $0.isHexDigit }) else { return nil }
    var result = ""
    for (index, character) in hex.enumerated() {
      if [8, 12, 16, 20].contains(index) { result.append("-") }
      result.append(character)
    }
    return result
  }
}
