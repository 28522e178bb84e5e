import InterfaceBuilder
import TestSupport
import Testing

/// Every xib and storyboard in the corpus (both platforms) reads, and bad documents give typed
/// errors that name the line.
@Suite struct InterfaceDocumentTests {
  static let documents = Corpus.files(in: "xib").filter { $0.pathExtension == "xib" || $0.pathExtension == "storyboard" }

  @Test func theCorpusHasItsDocuments() throws {
    try #require(Corpus.isAvailable, Corpus.missingReason)
    #expect(Self.documents.count >= 190, "expected the corpus's 170 xibs and 22 storyboards")
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: documents)
  func reads(_ file: CorpusFile) throws {
    let document = try InterfaceDocument(contentsOfFile: file.path)
    #expect(document.root.name == "document")
    #expect(!document.targetRuntime.isEmpty)
    if document.kind == .storyboard { #expect(!document.scenes.isEmpty) } else { #expect(!document.objects.isEmpty) }
  }

  @Test func linesAreTheStartTags() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" targetRuntime="MacOSX.Cocoa">
          <objects>
              <customObject id="-2" userLabel="File's Owner"/>
              <window title="A &amp; B" id="1">
                  <string key="toolTip">tip &lt;here&gt;</string>
              </window>
          </objects>
      </document>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), path: "t.xib")
    #expect(document.kind == .xib && document.platform == .macOS)
    let window = try #require(document.objects.last)
    #expect(window.line == 5)
    #expect(window["title"] == "A & B")
    #expect(window.attributes.map(\.name) == ["title", "id"])
    #expect(window.child("string", key: "toolTip")?.text == "tip <here>")
  }

  @Test func malformedXMLNamesTheLine() {
    let text = "<?xml version=\"1.0\"?>\n<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" version=\"3.0\">\n<objects>\n</document>\n"
    let error = expectError(InterfaceBuilderError.self, .malformedXML) { try InterfaceDocument(bytes: Array(text.utf8), path: "bad.xib") }
    #expect(error?.line == 4)
    #expect(error?.description.hasPrefix("bad.xib:4: ") == true)
  }

  @Test func aDocumentTypeDeclarationIsRefused() {
    let bomb = """
      <?xml version="1.0"?>
      <!DOCTYPE document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" title="&b;"/>
      """
    let error = expectError(InterfaceBuilderError.self, .malformedXML) { try InterfaceDocument(bytes: Array(bomb.utf8), path: "bomb.xib") }
    #expect(error?.line == 2)
  }

  @Test func notAnInterfaceBuilderDocument() {
    expectError(InterfaceBuilderError.self, .invalidDocument) { try InterfaceDocument(bytes: Array("<plist version=\"1.0\"/>".utf8)) }
    let oldFormat = "<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" version=\"2.0\"/>"
    expectError(InterfaceBuilderError.self, .invalidDocument) { try InterfaceDocument(bytes: Array(oldFormat.utf8)) }
  }

  @Test func limitsAreKept() {
    let deep = "<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" version=\"3.0\">" + String(repeating: "<a>", count: 40)
      + String(repeating: "</a>", count: 40) + "</document>"
    expectError(InterfaceBuilderError.self, .limitExceeded) {
      try InterfaceDocument(bytes: Array(deep.utf8), limits: .init(maximumDepth: 20))
    }
    expectError(InterfaceBuilderError.self, .limitExceeded) {
      try InterfaceDocument(bytes: Array(deep.utf8), limits: .init(maximumElementCount: 10))
    }
    expectError(InterfaceBuilderError.self, .limitExceeded) {
      try InterfaceDocument(bytes: Array(deep.utf8), limits: .init(maximumByteCount: 100))
    }
  }
}

/// "<!" inside a comment or a CDATA section is not a declaration.
@Suite struct DeclarationScanTests {
  @Test func commentsAndCDATAMayHoldMarkupLookalikes() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- <!DOCTYPE x> in a comment -->
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" targetRuntime="MacOSX.Cocoa">
          <objects><customObject id="-2"><string key="toolTip"><![CDATA[<!ENTITY not one>]]></string></customObject></objects>
      </document>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), path: "c.xib")
    #expect(document.objects.first?.child("string")?.text == "<!ENTITY not one>")
  }

  @Test func aDeclarationAfterACommentIsStillFound() {
    let text = "<?xml version=\"1.0\"?>\n<!-- fine -->\n<!DOCTYPE document>\n<document/>"
    let error = expectError(InterfaceBuilderError.self, .malformedXML) { try InterfaceDocument(bytes: Array(text.utf8), path: "d.xib") }
    #expect(error?.line == 3)
  }
}
