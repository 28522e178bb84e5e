import Foundation
import Interface
import InterfaceBuilder
import TestSupport
import Testing

/// Size-class variations the UIKit compilers leave out (``UIKitNibCompiler/unwrittenVariations(in:)``):
/// none among the corpus's Apple-compiled pairs (whose variations are all of a constraint's
/// constant, a stack view's spacing or installed constraints, all written), and one warning with
/// its line for each other variation — a varying `hidden`, font or colour, a key this compiler
/// does not know — whose base value is compiled as if the variation were absent.
@Suite struct UnwrittenVariationTests {
  /// A label with a width-class constant on a constraint (written), and `extra` inside the label's
  /// element (what may vary that no pair shows).
  static func xib(_ extra: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="17156" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES">
      <objects>
        <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
        <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
        <view contentMode="scaleToFill" id="root">
          <rect key="frame" x="0.0" y="0.0" width="320" height="100"/>
          <subviews>
            <label opaque="NO" text="Hello" translatesAutoresizingMaskIntoConstraints="NO" id="lab">
              <rect key="frame" x="10" y="10" width="100" height="20"/>
              <fontDescription key="fontDescription" type="system" pointSize="17"/>
    \(extra)
            </label>
          </subviews>
          <constraints>
            <constraint firstItem="lab" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="c1">
              <variation key="widthClass=regular" constant="30"/>
            </constraint>
          </constraints>
        </view>
      </objects>
    </document>

    """
  }

  static let varying = """
          <variation key="heightClass=compact" hidden="YES"/>
          <variation key="widthClass=regular">
            <fontDescription key="fontDescription" type="system" pointSize="30"/>
          </variation>
          <variation key="displayGamut=P3" hidden="YES"/>
    """

  @Test func eachUnwrittenVariationIsAWarningWithItsLine() throws {
    let text = Self.xib(Self.varying)
    let document = try InterfaceDocument(bytes: Array(text.utf8), path: "Varying.xib")
    let warnings = UIKitNibCompiler.unwrittenVariations(in: document)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    func line(of fragment: String) -> Int { (lines.firstIndex { $0.contains(fragment) } ?? -1) + 1 }
    #expect(warnings.map(\.line) == [line(of: "heightClass=compact"), line(of: "widthClass=regular\">"), line(of: "displayGamut")])
    #expect(warnings.allSatisfy { $0.element == "variation" && $0.path == "Varying.xib" })
    #expect(warnings[0].detail.contains("of <label> varies `hidden`"), "\(warnings[0])")
    #expect(warnings[1].detail.contains("varies <fontDescription key=\"fontDescription\">"), "\(warnings[1])")
    #expect(warnings[2].detail.contains("a trait other than the size classes"), "\(warnings[2])")
    // The written constant variation gives none; the base values are what is compiled.
    let without = try InterfaceDocument(bytes: Array(Self.xib("").utf8), path: "Plain.xib")
    #expect(UIKitNibCompiler.unwrittenVariations(in: without).isEmpty)
    let compiled = NIBArchive(try UIKitNibCompiler.compile(document), keepingUnreachable: false)
    let plain = NIBArchive(try UIKitNibCompiler.compile(without), keepingUnreachable: false)
    #expect(compiled.canonicalDifference(from: plain) == nil)
  }

  @Test func ibtoolReportsThemAsWarnings() throws {
    let folder = try ScratchFolder("ibtool-variations")
    defer { folder.remove() }
    try folder.write(Array(Self.xib(Self.varying).utf8), to: "Varying.xib")
    let outcome = try IBToolTests.run(["--warnings", "--output-format", "human-readable-text", "--compile", "Varying.nib", "Varying.xib"], in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.components(separatedBy: "no Apple sample shows").count - 1 == 3, "\(outcome.stdoutText)")
    #expect(try folder.contents().contains("Varying.nib"))
  }

  /// Every variation of the corpus's Apple-compiled iOS sources is written.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theCorpusPairsHaveNone() throws {
    let sources = Corpus.files(in: "ios_pairs").filter { ["xib", "storyboard"].contains($0.url.pathExtension) }
    #expect(sources.count >= 700)
    var varying = 0
    for source in sources {
      let document = try InterfaceDocument(contentsOfFile: source.path)
      if String(decoding: try Data(contentsOf: source.url), as: UTF8.self).contains("<variation ") { varying += 1 }
      let warnings = UIKitNibCompiler.unwrittenVariations(in: document)
      #expect(warnings.isEmpty, "\(source.name): \(warnings)")
    }
    #expect(varying >= 20, "the corpus's sources with size-class variations")
  }
}
