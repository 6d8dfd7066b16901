// What a stylesheet imported by its address (`?url`) is in tests: an address, as the build gives one.
export default "/assets/stylesheet.css";
