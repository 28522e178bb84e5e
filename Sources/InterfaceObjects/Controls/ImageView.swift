/// An image view (`UIImageView` / `NSImageView`).
open class ImageView: Control {
  private var ownImage: Image?
  public required init() { super.init() }
  /// `image`.
  public var image: Image? {
    get { (cell as? ImageCell)?.image ?? ownImage }
    set { ownImage = newValue }
  }
  public static let imageViewKeys = NibKeyTable(for: ImageView.self, inheriting: controlKeys) {
    $0.key("image", \.image)
    $0.uiKit { $0.object(\.ownImage, from: "UIImage") { $0.ownImage = $1 } }
  }
  open override class var nibKeyTable: NibKeyTable { imageViewKeys }
}
