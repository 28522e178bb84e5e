import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// Text views on small documents: custom classes, and the text-checking bits of their shared
/// data in xibs and in storyboards (sb_textview, sb_tv_customclass).
@Suite struct TextViewTests {
  static let options = CocoaNibCompiler.Options(colorProfiles: ColorProfiles(genericGray: [1, 2, 3], sRGB: [4, 5, 6]))

  static func textView(_ attributes: String) -> String {
    """
                                <textView importsGraphics="NO" richText="NO" verticallyResizable="YES" \(attributes) id="tv">
                                    <rect key="frame" x="0" y="0" width="200" height="100"/>
                                    <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                    <size key="minSize" width="200" height="100"/>
                                    <size key="maxSize" width="200" height="10000000"/>
                                </textView>
    """
  }

  static func xib(_ attributes: String) -> [UInt8] {
    CocoaNibCompilerUnitTests.xib(
      """
              <customView id="view">
                  <rect key="frame" x="0" y="0" width="200" height="100"/>
                  <subviews>
      \(textView(attributes))
                  </subviews>
              </customView>
      """)
  }

  static func storyboard(_ attributes: String) -> [UInt8] {
    HostileDocumentTests.storyboard(
      """
              <scene sceneID="s1"><objects>
                  <viewController id="vc" sceneMemberID="viewController">
                      <view key="view" id="view">
                          <rect key="frame" x="0" y="0" width="200" height="100"/>
                          <subviews>
      \(textView(attributes))
                          </subviews>
                      </view>
                  </viewController>
              </objects></scene>
      """)
  }

  /// The compiled text view (or its class swapper) and its shared data's `NSFlags`.
  static func compiled(_ bytes: [UInt8], path: String) throws -> (graph: NibGraph, textView: Int, flags: NIBArchive.Payload?) {
    let document = try InterfaceDocument(bytes: bytes, path: path)
    let graph =
      document.kind == .storyboard
      ? try #require(CocoaStoryboardCompiler.compile(document, options: options).nibs.first { $0.name.contains("-view-") }?.graph)
      : try CocoaNibCompiler.compile(document, options: options)
    let textView = try #require(graph.objects.firstIndex { $0["NSSharedData"] != nil })
    guard case .object(let shared)? = graph[textView]["NSSharedData"] else {
      Issue.record("no shared data")
      return (graph, textView, nil)
    }
    return (graph, textView, graph[shared]["NSFlags"])
  }

  @Test func aCustomClassIsAClassSwapperDecodedWithItsCoder() throws {
    let (graph, textView, _) = try Self.compiled(Self.xib(#"customClass="MyTextView""#), path: "t.xib")
    #expect(graph[textView].className == "NSClassSwapper")
    #expect(graph[textView].entries.prefix(2).map(\.key) == ["NSClassName", "NSOriginalClassName"])
    #expect(graph.text(of: graph[textView], forKey: "NSClassName") == "MyTextView")
    #expect(graph.text(of: graph[textView], forKey: "NSOriginalClassName") == "NSTextView")
    #expect(graph[textView]["NSInitializeWithInit"] == nil, "NSTextView is decoded with initWithCoder:")
  }

  /// In a xib, spellingCorrection is bit 0x4000000 and nothing else of the text-checking bits.
  @Test(arguments: [("spellingCorrection=\"YES\"", 0x400_0b03), ("", 0xb03)])
  func aXibsTextCheckingBitsFollowTheDocument(_ attributes: String, _ flags: Int) throws {
    let compiled = try Self.compiled(Self.xib(#"smartInsertDelete="YES" "# + attributes), path: "t.xib")
    #expect(compiled.flags == NibGraph.integer(flags))
  }

  /// In a storyboard, the text-checking bits are 0x8000 | 0x2000000, spellingCorrection or not.
  @Test(arguments: ["spellingCorrection=\"YES\"", "", #"spellingCorrection="YES" customClass="MyTextView""#])
  func aStoryboardsTextCheckingBitsAreTheCompilingMacs(_ attributes: String) throws {
    let compiled = try Self.compiled(Self.storyboard(#"smartInsertDelete="YES" "# + attributes), path: "t.storyboard")
    #expect(compiled.flags == NibGraph.integer(0x200_8b03))
  }
}
