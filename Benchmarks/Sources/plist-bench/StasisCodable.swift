import Foundation
import PropertyLists

// Stasis's Codable PropertyListDecoder/Encoder (Sources/PropertyLists/Codable). run.sh compiles
// this with -DSTASIS_CODABLE once those files exist; until then the column shows "n/a".

#if STASIS_CODABLE
let stasisCodableAvailable = true

func stasisCodableDecode(_ bytes: Data) throws -> ItemStore {
  try PropertyLists.PropertyListDecoder().decode(ItemStore.self, from: bytes)
}

func stasisCodableEncoder(_ format: DocumentFormat) throws -> (ItemStore) throws -> Data {
  let encoder = PropertyLists.PropertyListEncoder()
  encoder.outputFormat = format.stasis
  return { store in try encoder.encode(store) }
}
#else
let stasisCodableAvailable = false

func stasisCodableDecode(_ bytes: Data) throws -> ItemStore {
  throw Unavailable("Stasis Codable not built yet")
}

func stasisCodableEncoder(_ format: DocumentFormat) throws -> (ItemStore) throws -> Data {
  throw Unavailable("Stasis Codable not built yet")
}
#endif
