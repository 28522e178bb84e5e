import FoundationEssentials
import PropertyLists

/// An error as `NSError` archives it: a domain, a code and a user-info dictionary.
///
/// Archived as `{NSCode: integer, NSDomain: UID → string, NSUserInfo: UID → dictionary}`; an
/// empty user info is written as `$null`, as Apple's `-[NSError encodeWithCoder:]` does. User-info
/// values are decoded with the classes the enclosing call allows plus the property-list types and
/// `URL` (swift-corelibs-foundation's list).
public struct ArchivedError: CustomStringConvertible {
  public var domain: String
  public var code: Int
  public var userInfo: [String: Any]

  public init(domain: String, code: Int, userInfo: [String: Any] = [:]) {
    self.domain = domain
    self.code = code
    self.userInfo = userInfo
  }

  public var description: String { "ArchivedError(\(domain) \(code), \(userInfo.count) user-info keys)" }
}

extension ArchivedError: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSError", ["NSError", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.integer(code), forKey: "NSCode")
    coder.encodeRaw(.uid(try coder.reference(to: domain)), forKey: "NSDomain")
    coder.encodeRaw(.uid(userInfo.isEmpty ? 0 : try coder.reference(to: userInfo)), forKey: "NSUserInfo")
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSError"
    guard let domain = try coder.decode(String.self, forKey: "NSDomain") else {
      throw coder.corrupt(className, "has no NSDomain string")
    }
    self.domain = domain
    code = try coder.storedInteger("NSCode", of: className) ?? 0
    userInfo = [:]
    let allowed: [Any.Type] = [
      [AnyHashable: Any].self, [Any].self, Set<AnyHashable>.self, String.self, Data.self, Date.self, URL.self,
    ]
    guard let info = try coder.decodeObject(forKey: "NSUserInfo", including: allowed) else { return }
    guard let dictionary = archivedDictionaryEntries(info) else {
      throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSError) has an NSUserInfo of type \(type(of: info)); expected a dictionary")
    }
    for (key, value) in dictionary {
      guard let name = archivedStringValue(key.base) else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSError) has a user-info key of type \(type(of: key.base)); expected a string")
      }
      userInfo[name] = value
    }
  }
}
