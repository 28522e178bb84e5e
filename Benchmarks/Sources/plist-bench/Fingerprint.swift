import CLibplist
import Foundation
import PropertyLists

/// A summary of a decoded item-store document that every system computes from its own result,
/// outside the timed loops, so that a decoder that is fast but wrong fails the run.
///
/// It covers the shape the timed check cannot (the timed loops only compare the item count):
/// integers, strings with non-ASCII text, optional keys, nested arrays and data.
struct Fingerprint: Equatable, Codable, CustomStringConvertible {
  var items = 0
  var categories = 0
  var idSum = 0
  var tagCount = 0
  var notesCount = 0
  var notesUTF8Bytes = 0
  var thumbnailBytes = 0
  var parentCount = 0
  var lastName = ""

  var description: String {
    "items \(items), categories \(categories), id sum \(idSum), tags \(tagCount), notes \(notesCount) "
      + "(\(notesUTF8Bytes) UTF-8 bytes), thumbnail bytes \(thumbnailBytes), parents \(parentCount), "
      + "last name \(lastName.debugDescription)"
  }
}

struct CheckFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Fingerprint {
  /// From Stasis's value model.
  init(_ root: PropertyListValue) throws {
    guard let items = root["items"]?.arrayValue, let categories = root["categories"]?.arrayValue else {
      throw CheckFailure("Stasis value has no items/categories arrays")
    }
    self.items = items.count
    self.categories = categories.count
    for item in items {
      guard let id = item["id"]?.intValue, let name = item["name"]?.stringValue,
        let tags = item["tags"]?.arrayValue, let thumbnail = item["thumbnail"]?.dataValue
      else { throw CheckFailure("Stasis value: an item lacks id/name/tags/thumbnail") }
      idSum &+= id
      tagCount += tags.count
      thumbnailBytes += thumbnail.count
      if let notes = item["notes"]?.stringValue {
        notesCount += 1
        notesUTF8Bytes += notes.utf8.count
      }
      if item["parentID"] != nil { parentCount += 1 }
      lastName = name
    }
  }

  /// From `PropertyListSerialization.propertyList(from:)`'s result.
  init(foundation root: Any) throws {
    guard let root = root as? [String: Any], let items = root["items"] as? [Any],
      let categories = root["categories"] as? [Any]
    else { throw CheckFailure("Foundation result has no items/categories arrays") }
    self.items = items.count
    self.categories = categories.count
    for case let item as [String: Any] in items {
      guard let id = (item["id"] as? NSNumber)?.intValue ?? (item["id"] as? Int),
        let name = item["name"] as? String, let tags = item["tags"] as? [Any],
        let thumbnail = item["thumbnail"] as? Data
      else { throw CheckFailure("Foundation result: an item lacks id/name/tags/thumbnail") }
      idSum &+= id
      tagCount += tags.count
      thumbnailBytes += thumbnail.count
      if let notes = item["notes"] as? String {
        notesCount += 1
        notesUTF8Bytes += notes.utf8.count
      }
      if item["parentID"] != nil { parentCount += 1 }
      lastName = name
    }
  }

  /// From the Codable structs.
  init(_ store: ItemStore) {
    items = store.items.count
    categories = store.categories.count
    for item in store.items {
      idSum &+= item.id
      tagCount += item.tags.count
      thumbnailBytes += item.thumbnail.count
      if let notes = item.notes {
        notesCount += 1
        notesUTF8Bytes += notes.utf8.count
      }
      if item.parentID != nil { parentCount += 1 }
      lastName = item.name
    }
  }

  /// From a libplist tree.
  init(libplist tree: LibplistTree) throws {
    // The tree frees its nodes when released: keep it alive while its nodes are read.
    self = try withExtendedLifetime(tree) { () throws in try Fingerprint(libplistRoot: tree.root) }
  }

  private init(libplistRoot root: plist_t) throws {
    guard plist_get_node_type(root) == PLIST_DICT, let items = plist_dict_get_item(root, "items"),
      plist_get_node_type(items) == PLIST_ARRAY, let categories = plist_dict_get_item(root, "categories"),
      plist_get_node_type(categories) == PLIST_ARRAY
    else { throw CheckFailure("libplist tree has no items/categories arrays") }
    self.items = Int(plist_array_get_size(items))
    self.categories = Int(plist_array_get_size(categories))
    for index in 0..<plist_array_get_size(items) {
      guard let item = plist_array_get_item(items, index), let idNode = plist_dict_get_item(item, "id"),
        let nameNode = plist_dict_get_item(item, "name"), let tags = plist_dict_get_item(item, "tags"),
        let thumbnail = plist_dict_get_item(item, "thumbnail")
      else { throw CheckFailure("libplist tree: an item lacks id/name/tags/thumbnail") }
      var id: UInt64 = 0
      plist_get_uint_val(idNode, &id)
      idSum &+= Int(truncatingIfNeeded: id)
      tagCount += Int(plist_array_get_size(tags))
      var length: UInt64 = 0
      _ = plist_get_data_ptr(thumbnail, &length)
      thumbnailBytes += Int(length)
      if let notes = plist_dict_get_item(item, "notes") {
        var noteLength: UInt64 = 0
        _ = plist_get_string_ptr(notes, &noteLength)
        notesCount += 1
        notesUTF8Bytes += Int(noteLength)
      }
      if plist_dict_get_item(item, "parentID") != nil { parentCount += 1 }
      var nameLength: UInt64 = 0
      guard let namePointer = plist_get_string_ptr(nameNode, &nameLength) else {
        throw CheckFailure("libplist tree: an item name is not a string")
      }
      lastName = String(decoding: UnsafeRawBufferPointer(start: namePointer, count: Int(nameLength)), as: UTF8.self)
    }
  }
}
