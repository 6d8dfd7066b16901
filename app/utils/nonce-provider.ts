// The Content-Security-Policy nonce of the page being rendered, for Remix's inline scripts.
// The server renders with it; in the browser the attribute reads empty, which React accepts.
import { createContext, useContext } from "react";

export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
