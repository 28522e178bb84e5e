public import Interface

/// The nib cache gives its nibs back on a memory warning (UIKit's `UINib` drops its data); every
/// ``ApplicationLifecycle`` registers `NibCache.shared`.
extension NibCache: Purgeable {
  public func purge() { removeAll() }
}
