import { useEffect, useState } from "react";

/** SPEC §9: success messages clear after 3 s. */
export const SUCCESS_MESSAGE_MS = 3000;

/**
 * Whether a success message is still shown: true when `token` becomes a new non-null value (each success brings a
 * new one: an answer object, a navigation key), false `ms` later. Rendered on the server as shown, so without
 * JavaScript the message simply stays.
 */
export function useTransient(token: unknown, ms = SUCCESS_MESSAGE_MS): boolean {
  const [shown, setShown] = useState(token != null);
  useEffect(() => {
    if (token == null) {
      setShown(false);
      return;
    }
    setShown(true);
    const timer = setTimeout(() => setShown(false), ms);
    return () => clearTimeout(timer);
  }, [token, ms]);
  return shown;
}
