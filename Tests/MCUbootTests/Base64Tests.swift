import Testing
@testable import MCUboot

struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    @Test func rfc4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == Array(encoded.utf8))
            #expect(Base64.decode(Array(encoded.utf8)) == Array(plain.utf8))
        }
    }

    @Test func rejectsMalformed() {
        for bad in ["Zg=", "Z===", "Zg==Zg==", "Zm9*", "=Zm9"] {
            #expect(Base64.decode(Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
