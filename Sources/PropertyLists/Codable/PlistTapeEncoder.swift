import FoundationEssentials

// Encodable → CodableTape → bytes, with no value tree in between.
//
// `PropertyListEncoder.encode(_:)` tries this encoder first. It serves values that write each
// container in one go — every member of a container written before the container's owner
// returns, no key repeated — which is what synthesized conformances, arrays and `[String: V]` do.
// Anything else (a nested container or super encoder, a container written to after a later
// sibling, a repeated key, a second container or value at one level, any error) makes it give up,
// and the caller encodes the value again through `PlistValueEncoder` and its tree, which handles
// all of that exactly as Foundation does: the bytes and the errors are the tree path's.

/// An open container on the tape.
struct CodableTapeFrame {
  /// The index of the container's header entry.
  let header: Int
  let isDictionary: Bool
  /// Members so far.
  var count = 0
  /// The level's key shape this dictionary follows (see `KeyTemplates`).
  var template: [String]
  /// How many keys so far equal the template's first keys; -1 once they have diverged (the
  /// keys are then read back from the tape when the dictionary closes).
  var matched = 0
}

/// The tape encoder's mutable state, kept behind a pointer: stored properties of a class are
/// checked for exclusive access at run time on every use, and these are used for every value.
struct PlistTapeState {
  var path: [any CodingKey] = []
  var tape = CodableTape()
  /// The open containers, innermost last (freed with the state: `PlistTapeEncoder`'s `deinit`).
  var frames = CodableTapeFrameStack()
  /// The tape index where the value being encoded at the current level starts.
  var levelStart = 0
  /// Set when the encoder gave up or an error went through it (an `encode(to:)` may catch an
  /// error and go on, and the tape would not show what the tree path does then).
  var gaveUp = false
  /// The last few types found not to be an array or `[String: V]`, so that the elements of an
  /// array of structs skip the dynamic cast that tells. Several: with one, an item and the
  /// struct inside it (its `dimensions`) replaced each other, and every item was cast again (the
  /// cast copies the value, retaining each of its strings, and looks the conformance up).
  var indirectTypes: [ObjectIdentifier?] = [nil, nil, nil, nil]
  /// Where the next type found goes in `indirectTypes`.
  var nextIndirectType = 0
  /// Keyed containers to hand out again (see `PlistTapeKeyedContainerCache`).
  var keyedContainers = PlistTapeKeyedContainerCache()
}

/// The `Encoder` that writes a ``CodableTape``; it is also its own single-value container.
final class PlistTapeEncoder: Encoder, SingleValueEncodingContainer {
  /// Thrown (and recorded in `gaveUp`) when the value needs the tree encoder.
  struct GiveUp: Error {}

  let userInfo: [CodingUserInfoKey: Any]
  private let state: UnsafeMutablePointer<PlistTapeState>
  /// A super encoder's stand-in: every use gives up.
  let isDetached: Bool
  let keyTemplates: KeyTemplates

  /// `entries` is an empty array whose memory the tape may use, `keyTemplates` the key shapes
  /// learned so far (see ``PlistTapeScratch``).
  init(
    userInfo: [CodingUserInfoKey: Any], detached: Bool = false, tapeCapacity: Int = 0, entries: [CodableTapeEntry] = [],
    keyTemplates: KeyTemplates = KeyTemplates()
  ) {
    self.userInfo = userInfo
    isDetached = detached
    self.keyTemplates = keyTemplates
    state = .allocate(capacity: 1)
    state.initialize(to: PlistTapeState())
    state.pointee.tape.entries = entries
    if tapeCapacity > 0 { state.pointee.tape.entries.reserveCapacity(tapeCapacity) }
  }

  deinit {
    state.pointee.frames.release()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  // The state's fields, addressed in place (no exclusivity checks, no copies).
  var path: [any CodingKey] {
    unsafeAddress { UnsafePointer(state).pointer(to: \.path)! }
    unsafeMutableAddress { state.pointer(to: \.path)! }
  }
  var tape: CodableTape {
    unsafeAddress { UnsafePointer(state).pointer(to: \.tape)! }
    unsafeMutableAddress { state.pointer(to: \.tape)! }
  }
  var frames: CodableTapeFrameStack {
    unsafeAddress { UnsafePointer(state).pointer(to: \.frames)! }
    unsafeMutableAddress { state.pointer(to: \.frames)! }
  }
  var levelStart: Int {
    get { state.pointee.levelStart }
    set { state.pointee.levelStart = newValue }
  }
  var gaveUp: Bool {
    get { state.pointee.gaveUp }
    set { state.pointee.gaveUp = newValue }
  }

  var codingPath: [any CodingKey] { path }

  /// The header index of the innermost open container (-1: none).
  @inline(__always) var top: Int { frames.lastHeader }

  /// The header a container gets when the encoder gave up on it: never the innermost one.
  static let noHeader = -2

  @inline(never) func giveUp() -> GiveUp {
    gaveUp = true
    return GiveUp()
  }

  // MARK: Top level

  /// Encodes `value` in `format` (binary or XML), or `nil` when the tree path must do it: the
  /// value did not suit the tape, encoded nothing or a fragment, or encoding or writing failed.
  /// `scratch` gives the sizes last time (capacity hints) and working memory; both are updated.
  static func encode<T: Encodable>(
    _ value: T, format: PropertyListFormat, userInfo: [CodingUserInfoKey: Any], scratch: inout PlistTapeScratch
  ) -> Data? {
    let hint = scratch.tapeCount + scratch.tapeCount / 16
    let entries = scratch.entries
    scratch.entries = []
    let shapes = scratch.keyShapes ?? PlistTapeKeyShapes()
    scratch.keyShapes = shapes
    let encoder = PlistTapeEncoder(
      userInfo: userInfo, tapeCapacity: hint, entries: consume entries, keyTemplates: shapes.templates)
    // The tape's memory goes back to the scratch, whatever happens, and the containers kept
    // for handing out again (which hold the encoder) are let go.
    defer {
      swap(&scratch.entries, &encoder.tape.entries)
      encoder.state.pointee.keyedContainers.removeAll()
    }
    do {
      try encoder.encodeTopLevel(value)
    } catch {
      return nil
    }
    guard !encoder.gaveUp, encoder.frames.isEmpty, let root = encoder.tape.entries.first else { return nil }
    if let scalar = root.scalar, scalar.fragmentKindDescription != nil { return nil }
    let data: Data?
    switch format {
    case .binary: data = try? encoder.tape.binaryData(reusing: &scratch)
    case .xml:
      data = try? encoder.tape.xmlData(
        capacity: scratch.outputCount + scratch.outputCount / 16, orders: &shapes.orders)
    default: data = nil
    }
    scratch.tapeCount = encoder.tape.entries.count
    scratch.outputCount = data?.count ?? 0
    return data
  }

  /// ``encode(_:format:userInfo:scratch:)`` without hints.
  static func encode<T: Encodable>(_ value: T, format: PropertyListFormat, userInfo: [CodingUserInfoKey: Any]) -> Data? {
    var scratch = PlistTapeScratch()
    return encode(value, format: format, userInfo: userInfo, scratch: &scratch)
  }

  /// The top-level value: dates and data are values of their own, as in Foundation.
  func encodeTopLevel<T: Encodable>(_ value: T) throws {
    if T.self == Date.self {
      tape.entries.append(.date(reinterpretValue(value, as: Date.self)))
    } else if T.self == Data.self {
      tape.entries.append(.data(reinterpretValue(value, as: Data.self)))
    } else if let collection = value as? any PlistTapeDirectEncodable {
      try collection.encodeDirectly(to: self)
    } else {
      try value.encode(to: self)
      // A top level that wrote nothing stays empty: the tree path reports it.
      if top == 0 { closeContainer() }
    }
  }

  // MARK: Children

  /// Appends a child value: scalars of the common types directly, arrays and `[String: V]` as
  /// loops, anything else through its `encode(to:)` at a new level. A child that encodes nothing
  /// is an empty dictionary, as in Foundation.
  @inline(__always)
  func encodeChild<T: Encodable>(_ value: T, key: any CodingKey) throws {
    if appendScalar(value) { return }
    try encodeLevel(value, key: key)
  }

  /// Appends `value` if it is a `String`, `Int`, `Double`, `Bool`, `Date` or `Data` (decided by
  /// its exact type, without running its `encode(to:)`); `false` for any other type.
  @inline(__always)
  func appendScalar<T: Encodable>(_ value: T) -> Bool {
    if T.self == String.self {
      append(.string(reinterpretValue(value, as: String.self)))
    } else if T.self == Int.self {
      append(.integer(PropertyListInteger(Int64(reinterpretValue(value, as: Int.self)))))
    } else if T.self == Double.self {
      append(.real(reinterpretValue(value, as: Double.self), width: .double))
    } else if T.self == Bool.self {
      append(.bool(reinterpretValue(value, as: Bool.self)))
    } else if T.self == Date.self {
      append(.date(reinterpretValue(value, as: Date.self)))
    } else if T.self == Data.self {
      append(.data(reinterpretValue(value, as: Data.self)))
    } else {
      return false
    }
    return true
  }

  @inline(__always) func append(_ entry: CodableTapeEntry) {
    tape.entries.append(entry)
  }

  /// Writes `value` if it is an array or `[String: V]` the encoder writes directly (collections
  /// of scalars recognized by their exact type, others through a dynamic cast); `false` when it
  /// is not one. The answer for the last few other types is remembered: a dynamic cast that fails
  /// costs a conformance lookup.
  @inline(__always)
  func encodeDirectCollection<T: Encodable>(_ value: T) throws -> Bool {
    let type = ObjectIdentifier(T.self)
    if state.pointee.indirectTypes.contains(type) { return false }
    if try encodeScalarCollection(value) { return true }
    if let collection = value as? any PlistTapeDirectEncodable {
      try collection.encodeDirectly(to: self)
      return true
    }
    let slot = state.pointee.nextIndirectType
    state.pointee.indirectTypes[slot] = type
    state.pointee.nextIndirectType = (slot &+ 1) & 3
    return false
  }

  /// Runs `value`'s encoding one level down, under `key`.
  private func encodeLevel<T: Encodable>(_ value: T, key: any CodingKey) throws {
    let savedStart = levelStart
    levelStart = tape.entries.count
    path.append(key)
    defer {
      path.removeLast()
      levelStart = savedStart
    }
    try encodeHere(value)
  }

  /// Encodes `value` at the current level: a collection the tape writes directly, anything else
  /// through its own `encode(to:)`, then closes the level. A thrown error gives the tape up.
  @inline(__always)
  func encodeHere<T: Encodable>(_ value: T) throws {
    do {
      if try !encodeDirectCollection(value) {
        try value.encode(to: self)
        closeLevel()
      }
    } catch {
      gaveUp = true
      throw error
    }
  }

  /// Ends the current level: closes the container it opened, or writes an empty dictionary when
  /// it wrote nothing.
  @inline(__always)
  func closeLevel() {
    if tape.entries.count == levelStart {
      append(.dictionary(keys: [], end: Int32(truncatingIfNeeded: levelStart &+ 1), isMap: false))
    } else if top == levelStart {
      closeContainer()
    }
  }

  /// Closes the innermost open container; `keys` are a dictionary's keys when the caller knows
  /// them (sorted and unique: a `[String: V]`).
  func closeContainer(keys known: [String]? = nil) {
    let frame = frames.removeLast()
    let end = tape.entries.count
    guard end < Int(Int32.max) else {
      gaveUp = true
      return
    }
    if frame.isDictionary {
      let keys = known ?? finishedKeys(frame)
      tape.entries[frame.header] = .dictionary(keys: keys, end: Int32(truncatingIfNeeded: end), isMap: known != nil)
    } else {
      tape.entries[frame.header] = .array(count: Int32(truncatingIfNeeded: frame.count), end: Int32(truncatingIfNeeded: end))
    }
  }

  /// The keys of a dictionary being closed: its template's (or a shorter one of the level's
  /// shapes), or the keys read back from the tape and checked for repeats.
  private func finishedKeys(_ frame: CodableTapeFrame) -> [String] {
    let level = frames.count
    if frame.matched >= 0 {
      if frame.matched == frame.template.count { return frame.template }
      if let shorter = keyTemplates.prefix(of: frame.template, count: frame.matched, level: level) { return shorter }
      let keys = Array(frame.template[..<frame.matched])
      keyTemplates.record(keys, level: level)
      return keys
    }
    var keys: [String] = []
    keys.reserveCapacity(frame.count)
    var seen = Set<String>(minimumCapacity: frame.count)
    let end = tape.entries.count
    tape.entries.withUnsafeBufferPointer { entries in
      var cursor = frame.header &+ 1
      while cursor < end {
        if case .key(let key) = entries[cursor] {
          keys.append(key)
          seen.insert(key)
        }
        cursor = CodableTape.next(after: cursor &+ 1, in: entries)
      }
    }
    // A key repeated (under Swift's equality, the tree's) is the tree path's to resolve.
    if seen.count != keys.count { gaveUp = true }
    keyTemplates.record(keys, level: level)
    return keys
  }

  /// Opens a container at the current level, or hands back the one already open there.
  func openContainer(isDictionary: Bool) -> Int {
    if isDetached { return Self.noHeader }
    if tape.entries.count == levelStart {
      let template = isDictionary ? keyTemplates[frames.count, 0] : []
      frames.append(CodableTapeFrame(header: levelStart, isDictionary: isDictionary, template: template))
      append(.array(count: 0, end: 0))
      return levelStart
    }
    if frames.lastHeader == levelStart, frames[frames.count &- 1].isDictionary == isDictionary { return levelStart }
    _ = giveUp()
    return Self.noHeader
  }

  /// Records `key` for the innermost dictionary (known to be the one written to).
  @inline(__always)
  func noteKey(_ key: String) {
    let last = frames.count &- 1
    frames[last].count &+= 1
    let matched = frames[last].matched
    guard matched >= 0 else { return }
    if matched < frames[last].template.count && sameString(frames[last].template[matched], key) {
      frames[last].matched = matched &+ 1
    } else if let other = keyTemplates.template(continuing: frames[last].template, matched: matched, with: key, level: last) {
      frames[last].template = other
      frames[last].matched = matched &+ 1
    } else {
      frames[last].matched = -1
    }
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let header = openContainer(isDictionary: true)
    if isDetached {
      return KeyedEncodingContainer(
        PlistTapeKeyedContainer<Key>(target: PlistTapeKeyedTarget(encoder: self, header: header, depth: path.count)))
    }
    return state.pointee.keyedContainers.container(keyedBy: Key.self, encoder: self, header: header, depth: path.count)
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    PlistTapeUnkeyedContainer(encoder: self, header: openContainer(isDictionary: false), depth: path.count)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: SingleValueEncodingContainer

  @inline(__always) private func setSingle(_ entry: CodableTapeEntry) throws {
    guard !isDetached, tape.entries.count == levelStart else { throw giveUp() }
    append(entry)
  }

  func encodeNil() throws { try setSingle(.string(codableNullString)) }
  func encode(_ value: Bool) throws { try setSingle(.bool(value)) }
  func encode(_ value: String) throws { try setSingle(.string(value)) }
  func encode(_ value: Double) throws { try setSingle(.real(value, width: .double)) }
  func encode(_ value: Float) throws { try setSingle(.real(Double(value), width: .single)) }
  func encode(_ value: Int) throws { try setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int8) throws { try setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int16) throws { try setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int32) throws { try setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int64) throws { try setSingle(.integer(PropertyListInteger(value))) }
  func encode(_ value: UInt) throws { try setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt8) throws { try setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt16) throws { try setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt32) throws { try setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt64) throws { try setSingle(.integer(PropertyListInteger(value))) }

  func encode<T: Encodable>(_ value: T) throws {
    guard !isDetached, tape.entries.count == levelStart else { throw giveUp() }
    // The value stands for this level itself: a scalar is appended, anything else encodes here.
    if appendScalar(value) { return }
    // Its encoding takes this level's place on the tape (the level starts here).
    try encodeHere(value)
  }
}
