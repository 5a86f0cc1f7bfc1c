/// Whether a keypath reaches through a key (`\.date.now`; `Internal/README.md`, "Objects", Key),
/// from the header's `_SwiftKeyPathBufferHeader_IsSingleComponentFlag`. A runtime without the
/// mark (checked once, on two keypaths of known shape) lets every keypath through.
enum KeyPathShape {
    /// The header's size bits: 0 for the identity keypath (`\.self`).
    private static let sizeMask: UInt32 = 0x00FF_FFFF
    private static let singleComponentFlag: UInt32 = 0x2000_0000
    /// After the object header (two words) and the keypath's one stored property (a pointer).
    private static let headerOffset = 3 * MemoryLayout<UnsafeRawPointer>.size

    /// Whether this runtime marks keypaths as `KeyPathShape` reads them.
    private static let isReadable: Bool = {
        let one = header(of: \Injections.shapeProbe)
        let two = header(of: \Injections.shapeProbe.component)
        return one & singleComponentFlag != 0 && one & sizeMask != 0
            && two & singleComponentFlag == 0 && two & sizeMask != 0
    }()

    @inline(__always)
    static func hasSeveralComponents(_ keyPath: AnyKeyPath) -> Bool {
        let word = header(of: keyPath)
        guard word & singleComponentFlag == 0, word & sizeMask != 0 else { return false }
        return isReadable
    }

    private static func header(of keyPath: AnyKeyPath) -> UInt32 {
        withExtendedLifetime(keyPath) {
            Unmanaged.passUnretained(keyPath).toOpaque()
                .load(fromByteOffset: headerOffset, as: UInt32.self)
        }
    }
}

/// Two keypaths of known shape, for `KeyPathShape`.
struct ShapeProbe {
    var component: Int { 0 }
}

extension Injections {
    var shapeProbe: ShapeProbe { ShapeProbe() }
}
