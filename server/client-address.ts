// The client's address for rate limits and the per-address caps: Fly's Fly-Client-IP only when we
// know Fly's proxy sets it (TRUST_PROXY=fly), else the socket's peer. Any incoming value of our own
// header is overwritten, so a client cannot choose its address.
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { CLIENT_IP_HEADER } from "../app/utils/rate-limit.server";

export function setClientAddress(req: ExpressRequest, _res: ExpressResponse, next: NextFunction) {
  const fromProxy = process.env.TRUST_PROXY === "fly" ? req.get("fly-client-ip") : undefined;
  req.headers[CLIENT_IP_HEADER] = (fromProxy ?? req.socket.remoteAddress ?? "unknown").trim();
  next();
}

/** The address setClientAddress gave this request. */
export function clientAddressOf(req: ExpressRequest): string {
  return String(req.headers[CLIENT_IP_HEADER] ?? "unknown");
}
