/// A picture's file (`plan.map`, `compare`'s `map`): PNG or SVG.
public enum WirePictureFormat: String, WireWord {
    case png, svg
}
