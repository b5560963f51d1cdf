// Placeholder: replaced by its area's implementation.
import { Outlet } from "react-router";
export default function Placeholder() {
  return <main className="container-page pt-28 pb-16"><h1 className="text-3xl">auth.register</h1><Outlet /></main>;
}
