public import ObjectModel

/// An image view (`UIImageView` / `NSImageView`).
open class ImageView: Control {
  private var ownImage: Image?
  public required init() { super.init() }
  /// `image`.
  public var image: Image? {
    get { (cell as? ImageCell)?.image ?? ownImage }
    set { ownImage = newValue }
  }
  public static let imageViewKeys = KeyTable(for: ImageView.self, inheriting: controlKeys) {
    $0.key("image", \.image)
  }
  open override class var keyTable: KeyTable { imageViewKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    if let image = try coder.decodeObject(forKey: "UIImage", as: Image.self) { ownImage = image }
  }
}
