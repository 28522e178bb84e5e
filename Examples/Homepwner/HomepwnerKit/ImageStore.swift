internal import FoundationEssentials
public import Lifecycle
public import Sandbox
public import StasisSystem

/// A photo as the store keeps it: its bytes, its type and its size in pixels when the header says.
public struct StoredImage: Sendable, Equatable {
  public enum Kind: String, Sendable { case png = "PNG", jpeg = "JPEG", gif = "GIF", unknown = "image" }
  public let bytes: [UInt8]
  public let kind: Kind
  /// Width and height from the PNG `IHDR`, the JPEG `SOFn` or the GIF screen descriptor.
  public let pixelSize: (width: Int, height: Int)?

  public init(bytes: [UInt8]) {
    self.bytes = bytes
    (kind, pixelSize) = StoredImage.inspect(bytes)
  }

  public static func == (left: StoredImage, right: StoredImage) -> Bool { left.bytes == right.bytes }

  /// "PNG, 640 × 480, 12 KB" — what the detail screen shows without a decoder.
  public var summary: String {
    let size = pixelSize.map { ", \($0.width) × \($0.height)" } ?? ""
    let kilobytes = (bytes.count + 1023) / 1024
    return "\(kind.rawValue)\(size), \(kilobytes) KB"
  }

  static func inspect(_ bytes: [UInt8]) -> (Kind, (width: Int, height: Int)?) {
    func big(_ offset: Int, _ count: Int) -> Int? {
      guard offset >= 0, offset + count <= bytes.count else { return nil }
      return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      guard let width = big(16, 4), let height = big(20, 4) else { return (.png, nil) }
      return (.png, (width, height))
    }
    if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 10 {
      return (.gif, (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8))
    }
    if bytes.starts(with: [0xFF, 0xD8]) {
      // Walk the segments to a start-of-frame marker (SOF0…SOF15 but DHT, JPG, DAC).
      var offset = 2
      var steps = 0
      while offset + 4 <= bytes.count, steps < 10_000 {
        steps += 1
        guard bytes[offset] == 0xFF else { break }
        let marker = bytes[offset + 1]
        if marker == 0xFF { offset += 1; continue }
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
          guard let height = big(offset + 5, 2), let width = big(offset + 7, 2) else { break }
          return (.jpeg, (width, height))
        }
        guard let length = big(offset + 2, 2), length >= 2 else { break }
        offset += 2 + length
      }
      return (.jpeg, nil)
    }
    return (.unknown, nil)
  }
}

/// The photos of the items (the book's `BNRImageStore`): one file per item key in `Documents`,
/// each written atomically through the environment's file system, and a memory cache of the
/// images read, emptied on every memory warning (register the store with
/// `ApplicationLifecycle.registerPurgeable`) and filled again from the files on demand.
public final class ImageStore: Purgeable {
  /// The folder of the image files.
  public let folder: String
  private let cache: Cache<String, StoredImage>
  private let fileSystem: any FileSystem
  /// How many images were read from disk (the cache missed).
  public private(set) var diskReads = 0
  /// The largest photo file read.
  static let maximumImageSize = 64 << 20

  public convenience init(container: AppContainer, cacheLimit: Int = 32 << 20, environment: HostEnvironment = .current) {
    self.init(folder: container.documentsPath, cacheLimit: cacheLimit, environment: environment)
  }

  public init(folder: String, cacheLimit: Int = 32 << 20, environment: HostEnvironment = .current) {
    self.folder = folder
    cache = Cache(totalCostLimit: cacheLimit)
    fileSystem = environment.fileSystem
    // What writers killed mid-write left (of photos that may never be written again).
    fileSystem.removeDebris(inFolder: folder)
  }

  /// The file of the photo of `key`.
  public func path(forKey key: String) -> String { folder + "/" + key + ".image" }

  /// Stores `bytes` as the photo of `key` (atomically: the old photo or the new one, never part
  /// of one) and caches it.
  ///
  /// - Throws: `.writeFailed` naming the photo's file; the previous photo is intact.
  public func setImage(_ bytes: [UInt8], forKey key: String) throws(HomepwnerError) {
    do {
      try fileSystem.write(Data(bytes), toFile: path(forKey: key))
    } catch {
      throw HomepwnerError(.writeFailed, detail: "the photo could not be saved; the previous one is intact", path: path(forKey: key), underlying: error)
    }
    cache.setValue(StoredImage(bytes: bytes), forKey: key, cost: bytes.count)
  }

  /// The photo of `key`: from the cache, else from its file (then cached); `nil` if none can be read.
  public func image(forKey key: String) -> StoredImage? {
    if let cached = cache.value(forKey: key) { return cached }
    guard let data = try? fileSystem.read(contentsOfFile: path(forKey: key), limit: Self.maximumImageSize) else { return nil }
    diskReads += 1
    let image = StoredImage(bytes: [UInt8](data))
    cache.setValue(image, forKey: key, cost: image.bytes.count)
    return image
  }

  /// Deletes the photo of `key` (none is no failure).
  ///
  /// - Throws: `.writeFailed` naming the photo's file when it is there and cannot be removed.
  public func deleteImage(forKey key: String) throws(HomepwnerError) {
    cache.removeValue(forKey: key)
    do {
      try fileSystem.removeItem(path(forKey: key))
    } catch where error.code == .notFound {
    } catch {
      throw HomepwnerError(.writeFailed, detail: "the photo could not be deleted", path: path(forKey: key), underlying: error)
    }
  }

  /// How many photos are in memory.
  public var cachedCount: Int { cache.count }

  /// Empties the memory cache (a memory warning); the files stay.
  public func purge() { cache.purge() }
}
