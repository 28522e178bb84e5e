import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import Testing

/// A view's restoration identifier in Apple's UIKit encoding: `UIKitNibCompiler` writes the
/// document's `restorationIdentifier` as the view's `UIRestorationIdentifier` (the key UIView's
/// decoder reads), and the loaded view has it — what state restoration finds a view by under its
/// controller's view (Homepwner's settings scroll view keeps its offset through a kill with it).
@MainActor
@Suite struct UIKitRestorationIdentifierTests {
  static func xib(_ identifiers: [String?]) -> [UInt8] {
    let subviews = identifiers.enumerated().map { index, identifier in
      let attribute = identifier.map { " restorationIdentifier=\"\($0)\"" } ?? ""
      return """
        <scrollView\(attribute) contentMode="scaleToFill" id="s\(index)">
          <rect key="frame" x="0.0" y="\(index * 20).0" width="100" height="20"/>
        </scrollView>
        """
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="17156" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
        <objects>
          <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
          <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
          <view restorationIdentifier="Root" contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="100" height="100"/>
            <subviews>
      \(subviews.joined(separator: "\n"))
            </subviews>
          </view>
        </objects>
      </document>
      """
    return Array(text.utf8)
  }

  @Test(arguments: [[nil, "Scroll"], ["A", "B"], [nil, nil]] as [[String?]])
  func restorationIdentifiersAreWrittenAndLoaded(_ identifiers: [String?]) throws {
    let document = try InterfaceDocument(bytes: Self.xib(identifiers), path: "Restoration.xib")
    let graph = try UIKitNibCompiler.compile(document)
    let written = graph.objects.compactMap { graph.text(of: $0, forKey: "UIRestorationIdentifier") }
    #expect(written.sorted() == (["Root"] + identifiers.compactMap { $0 }).sorted())
    // Read back from the bytes ibtool writes, then loaded.
    let nib = Nib(graph: NibGraph(NIBArchive(graph, keepingUnreachable: false)), name: "Restoration.nib")
    let root = try #require(try nib.instantiate(withOwner: nil).compactMap { $0 as? View }.first)
    #expect(root.restorationIdentifier == "Root")
    #expect(root.subviews.map(\.restorationIdentifier) == identifiers)
    #expect(root.subviews.allSatisfy { $0 is ScrollView })
  }
}
