export default function Index() {
  return <h1>Printnear</h1>;
}
